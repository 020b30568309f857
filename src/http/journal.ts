/**
 * Records every request under the API prefix in the sandbox's journal (contract §3.4), errors
 * included. It wraps the error envelope, so it sees the status actually sent; admin calls and
 * `/openapi.json` are never recorded.
 */
import type { Next, SandboxContext } from './context.js';

export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The body exactly as sent: re-read from the raw text, since validation fills defaults into the parsed one. */
function sentBody(ctx: SandboxContext): unknown {
  const raw = (ctx.request as { rawBody?: string }).rawBody;
  if (raw === undefined || raw.trim() === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function journal(prefix: string) {
  return async function journalMiddleware(ctx: SandboxContext, next: Next): Promise<void> {
    if (!isUnder(ctx.path, prefix)) return void (await next());
    // The slot belongs to this boot's journal: a reset during the request leaves it out of the new one.
    const slot = ctx.sandbox.journal.arrive({
      request_id: ctx.state.requestId,
      method: ctx.method,
      path: ctx.path,
      query: { ...ctx.query } as Record<string, string | string[]>,
      timestamp: new Date(ctx.sandbox.clock.now()).toISOString(),
    });
    try {
      await next();
    } finally {
      const { caller, operation, scenarios, idempotentReplayed } = ctx.state;
      const known = caller?.kind === 'api_key';
      slot.finish({
        status: ctx.status,
        account_id: known ? caller.account.id : null,
        api_key_id: known ? caller.key.id : null,
        operation_id: operation?.operationId ?? null,
        idempotent_replayed: idempotentReplayed === true,
        scenario_ids: scenarios?.scenarioIds() ?? [],
        body: sentBody(ctx),
      });
    }
  };
}
