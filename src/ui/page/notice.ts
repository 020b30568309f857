/** The header's status line: where the page reports what failed (a call refused, the sandbox gone) or what was done. */
import { byId } from './dom.js';

export function notify(message: string): void {
  byId('notice').textContent = message;
}

export function noticeShown(): string {
  return byId('notice').textContent ?? '';
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs `task`, showing its failure in the status line instead of leaving it unhandled. */
export function reportFailure(task: Promise<unknown>): void {
  task.catch((error: unknown) => notify(describe(error)));
}
