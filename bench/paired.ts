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
import { Prng } from '../src/random.js';
import { median } from './lib.js';

export interface PairedResult {
  /** Calls of `once` per variant per block. */
  perBlock: number;
  /** Per variant: median CPU microseconds per call of `once` over the blocks, and median calls per wall second. */
  variants: Record<string, { cpuUsPerCall: number; wallPerSecond: number }>;
  /** `ratio(a, b)`: median over blocks of b's CPU per request / a's, i.e. a's throughput per CPU-second relative to b's. */
  ratio(a: string, b: string): { median: number; low: number; high: number };
  /** a's requests per CPU-second over the whole run relative to b's (total CPU of each over all blocks). */
  overall(a: string, b: string): number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The block orders, shuffled by the sandbox's own seeded generator: the same from run to run. */
function orders(seed: string): (names: string[]) => string[] {
  const prng = new Prng(seed);
  return (names) => {
    const order = [...names];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = prng.int(0, i);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    return order;
  };
}

/**
 * Runs each variant's `once` for about `blockMs` of wall time per block, `blocks` times, in an
 * order shuffled per block (a fixed rotation would have each variant follow the same other one
 * and always collect its garbage). `once` runs one request, or one batch, to its end.
 */
export async function paired(
  variants: Record<string, () => Promise<unknown>>,
  { blocks = 300, blockMs = 10 }: { blocks?: number; blockMs?: number } = {},
): Promise<PairedResult> {
  const names = Object.keys(variants);
  // Warm-up, not counted: the JIT and the first compiles of every variant, timed to size the
  // blocks: long enough for the CPU accounting, short enough to sit inside one burst of steal.
  let warmMs = 0;
  for (const name of names) {
    for (let i = 0; i < 20; i += 1) await variants[name]!();
    const start = process.hrtime.bigint();
    for (let i = 0; i < 100; i += 1) await variants[name]!();
    warmMs += Number(process.hrtime.bigint() - start) / 1e6 / 100;
  }
  const perBlock = Math.max(5, Math.round(blockMs / (warmMs / names.length)));
  const shuffled = orders('paired-blocks');
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let block = 0; block < blocks; block += 1) {
    for (const name of shuffled(names)) {
      const once = variants[name]!;
      const cpuStart = process.cpuUsage();
      const wallStart = process.hrtime.bigint();
      for (let i = 0; i < perBlock; i += 1) await once();
      const used = process.cpuUsage(cpuStart);
      const seconds = Number(process.hrtime.bigint() - wallStart) / 1e9;
      cpu[name]!.push((used.user + used.system) / perBlock);
      wall[name]!.push(perBlock / seconds);
    }
  }
  return {
    perBlock,
    variants: Object.fromEntries(names.map((n) => [n, { cpuUsPerCall: median(cpu[n]!), wallPerSecond: median(wall[n]!) }])),
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
