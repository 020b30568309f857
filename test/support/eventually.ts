import { vi } from 'vitest';

/**
 * Waits until `check` stops throwing. vi.waitFor's own default gives up after 1 s, a real-time budget
 * that a busy 2-core machine misses; here the limit only catches a hang, like the suite's test timeouts.
 */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 120_000, interval: 10 });
}
