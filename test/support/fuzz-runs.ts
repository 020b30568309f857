/**
 * How many cases a property test of test/proof/ runs. `npm test` keeps them bounded so the suite
 * stays within its time goal; `CCM_FUZZ_SCALE=10 npx vitest run test/proof` runs ten
 * times as many, for a deeper search before a release or after touching validation.
 */
export function fuzzRuns(normal: number): number {
  const scale = Number(process.env.CCM_FUZZ_SCALE ?? '1');
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`CCM_FUZZ_SCALE must be a positive number, got ${process.env.CCM_FUZZ_SCALE}`);
  return Math.max(1, Math.round(normal * scale));
}
