/**
 * A seam for watching finished /v1 responses without touching them: logging, metrics, or the
 * project's response-contract tests (test/support/contract.ts). It runs outermost, so observers
 * see exactly what the client gets (the envelope has already turned errors into responses). An
 * observer's own failure never changes the response.
 */
import type { OperationDef } from '../operations/types.js';
import type { Next, SandboxContext } from './context.js';
import { isUnder } from './path-prefix.js';

export interface FinishedResponse {
  method: string;
  /** The path, including `/v1`. */
  path: string;
  /** Path and query string as requested. */
  url: string;
  status: number;
  /** Response headers, lower-cased names. */
  headers: Readonly<Record<string, unknown>>;
  /** The body as the app set it (a JSON value on /v1). Observers must not mutate it. */
  body: unknown;
  /** The operation that answered; undefined when none matched (unknown path or method, or a 429 before routing). */
  operation: OperationDef | undefined;
}

export type ResponseObserver = (response: FinishedResponse) => void;

export function observeResponses(observers: ReadonlySet<ResponseObserver>, prefix: string) {
  const watched = (path: string) => isUnder(path, prefix);
  const observe = async (ctx: SandboxContext, next: Next): Promise<void> => {
    await next();
    // A transport fault sent no response to observe (or only part of one).
    if (ctx.state.fault) return;
    const sent = ctx.state.written ? ctx.state.reply : undefined;
    const finished: FinishedResponse = {
      method: ctx.method,
      path: ctx.path,
      url: ctx.originalUrl,
      status: sent?.status ?? ctx.status,
      headers: sent ? ctx.state.headers.toObject() : ctx.response.headers,
      // As the app set it: a JSON value, or the stored text of an idempotent replay.
      body: sent ? sent.body : ctx.body,
      operation: ctx.state.operation,
    };
    for (const observer of observers) {
      try {
        observer(finished);
      } catch {
        // Watching must never break serving.
      }
    }
  };
  // With nobody watching (the usual case) the request passes untouched; checked as it arrives.
  return function observeResponsesMiddleware(ctx: SandboxContext, next: Next): Promise<unknown> {
    return observers.size === 0 || !watched(ctx.path) ? next() : observe(ctx, next);
  };
}
