/**
 * Side-by-side cost of in-process variants (findings on/off, coverage and journal headers on/off):
 * many short blocks, each running every variant back to back in a rotating order, timed by the
 * process's CPU time as well as the wall clock. On a shared VM the hypervisor steals 10–40% of the
 * CPU in bursts of a few hundred milliseconds, so long rounds of one variant after the other compare
 * different machines (ratios of the same tree swung 0.7–1.3 with seven 2,000-request rounds). Blocks
 * of a few hundred requests put both variants in the same burst, and CPU time (which the guest
 * kernel does not charge for stolen time) leaves out the waits. The ratio reported is the median of
 * the per-block ratios; the spread is their interquartile range.
 */
import { median } from './lib.js';

export interface PairedResult {
  /** Requests per variant per block. */
  perBlock: number;
  /** Per variant: median CPU microseconds per request over the blocks, and median requests per wall second. */
  variants: Record<string, { cpuUsPerRequest: number; wallPerSecond: number }>;
  /** `ratio(a, b)`: median over blocks of b's CPU per request / a's, i.e. a's throughput per CPU-second relative to b's. */
  ratio(a: string, b: string): { median: number; low: number; high: number };
  /** a's requests per CPU-second over the whole run relative to b's (total CPU of each over all blocks). */
  overall(a: string, b: string): number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Runs each variant's `once` for about `blockMs` per block, `blocks` times (after one block of
 * warm-up, not counted). `once` runs one request to its end.
 */
export async function paired(
  variants: Record<string, () => Promise<unknown>>,
  { blocks = 300, blockMs = 10 }: { blocks?: number; blockMs?: number } = {},
): Promise<PairedResult> {
  const names = Object.keys(variants);
  // Blocks long enough for the kernel's CPU accounting (a few ms granular on some guests) and short
  // enough to sit inside one burst of steal: sized from a first timed run of the first variant.
  const probeStart = process.hrtime.bigint();
  for (let i = 0; i < 50; i += 1) await variants[names[0]!]!();
  const perRequestMs = Number(process.hrtime.bigint() - probeStart) / 1e6 / 50;
  const perBlock = Math.max(50, Math.round(blockMs / perRequestMs));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let block = -1; block < blocks; block += 1) {
    // Rotating order: neither variant always runs first in a block (after the other's garbage).
    const order = names.map((_, i) => names[(i + Math.max(block, 0)) % names.length]!);
    for (const name of order) {
      const once = variants[name]!;
      const cpuStart = process.cpuUsage();
      const wallStart = process.hrtime.bigint();
      for (let i = 0; i < perBlock; i += 1) await once();
      const used = process.cpuUsage(cpuStart);
      const seconds = Number(process.hrtime.bigint() - wallStart) / 1e9;
      if (block < 0) continue;
      cpu[name]!.push((used.user + used.system) / perBlock);
      wall[name]!.push(perBlock / seconds);
    }
  }
  return {
    perBlock,
    variants: Object.fromEntries(names.map((n) => [n, { cpuUsPerRequest: median(cpu[n]!), wallPerSecond: median(wall[n]!) }])),
    overall(a, b) {
      const total = (list: number[]) => list.reduce((sum, x) => sum + x, 0);
      return total(cpu[b]!) / total(cpu[a]!);
    },
    ratio(a, b) {
      const ratios = cpu[a]!.map((own, i) => cpu[b]![i]! / own).sort((x, y) => x - y);
      return { median: median(ratios), low: quantile(ratios, 0.25), high: quantile(ratios, 0.75) };
    },
  };
}
