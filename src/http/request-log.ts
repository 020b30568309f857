/**
 * `--log`: one line per request on stderr with its request id, method, path, status and duration.
 * Quiet by default: the sandbox runs inside other teams' test output.
 */
import { performance } from 'node:perf_hooks';
import type { Next, SandboxContext } from './context.js';
import { replyStatus } from './reply.js';

export type LogWriter = (line: string) => void;

export function requestLog(options: { write?: LogWriter } = {}) {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  return async function requestLogMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      // Real elapsed time, not the virtual clock: this measures the sandbox itself.
      const ms = (performance.now() - started).toFixed(1);
      write(`${ctx.state.requestId ?? '-'} ${ctx.method} ${ctx.originalUrl} ${replyStatus(ctx)} ${ms}ms`);
    }
  };
}
