/**
 * Feeds coverage (contract §5.2, src/coverage/) with every /v1 request as it finishes, errors
 * included: it wraps the error envelope, as the journal does, so it sees the status actually sent.
 * Independent of the journal (counted with `journalSize: 0` too).
 */
import { coverageOf, type FinishedRequest } from '../coverage/coverage-book.js';
import type { Next, SandboxContext, SandboxMiddleware } from './context.js';
import { answeredNothing } from './faults.js';
import { isUnder } from './path-prefix.js';
import { replyStatus } from './reply.js';

const NONE: readonly string[] = Object.freeze([]);

/** The facts coverage needs of a finished request; undefined when it must not count. */
export function finishedRequest(ctx: SandboxContext): FinishedRequest | undefined {
  const { caller, operation, scenarios, fault, world } = ctx.state;
  const known = caller?.kind === 'api_key';
  // Reset or deleted while it ran (contract §4.1): nothing of it stays, as in the journal.
  if (known && world.store.forAccount(caller.account.id) !== caller.account) return undefined;
  return {
    account_id: known ? caller.account.id : null,
    operation_id: operation?.operationId ?? null,
    status: answeredNothing(fault) ? null : replyStatus(ctx),
    scenarios: scenarios ? scenarios.scenarioNames() : NONE,
    fault: fault?.type ?? null,
  };
}

async function count(ctx: SandboxContext, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    const finished = finishedRequest(ctx);
    if (finished) coverageOf(ctx.state.world).requestFinished(finished);
  }
}

export function recordCoverage(prefix: string): SandboxMiddleware {
  return function recordCoverageMiddleware(ctx, next) {
    return isUnder(ctx.path, prefix) ? count(ctx, next) : next();
  };
}
