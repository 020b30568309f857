/**
 * Forced garbage collection for memory checks. Node exposes `gc` only with --expose-gc; the flag can
 * also be turned on at run time, after which a fresh V8 context carries the function. When neither
 * works the caller falls back to a generous bound.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function findGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Heap in use after collecting everything collectable (several passes: weak references clear late). */
export async function settledHeap(gc: (() => void) | undefined): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}
