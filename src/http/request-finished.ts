/**
 * Feeds the world modules that watch traffic (`requestFinished`, src/sandbox/world-module.ts) with
 * what each finished /v1 request looked like. The writer calls it once it is done, so it knows whether
 * the answer was written, lost to a fault or left unwritten because the client went away. With no
 * module listening (the world's list is empty) a request passes untouched and nothing is built.
 */
import type { RequestExchange } from '../sandbox/world-module.js';
import type { SandboxContext } from './context.js';
import { answeredNothing } from './faults.js';
import { clientIp } from './identify-caller.js';
import { bodyLeftUnread, bodyReadLate } from './journal.js';
import { isUnder } from './path-prefix.js';
import { replyStatus, type FinishWatcher } from './reply.js';

/** The body as sent, when it was read and is JSON; null otherwise. */
function sentBody(ctx: SandboxContext): unknown {
  const raw = (ctx.request as { rawBody?: string }).rawBody;
  if (raw === undefined || raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function parsed(raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The body answered before it was read, as a reader a listener calls only if it needs it. */
function lateBody(ctx: SandboxContext): (() => Promise<unknown>) | null {
  if ((ctx.request as { rawBody?: string }).rawBody !== undefined || !bodyLeftUnread(ctx)) return null;
  return () => bodyReadLate(ctx).then(parsed);
}

/**
 * One request as the listeners see it once it finished, made when it arrives (the one object a
 * watched request costs): a view over the request's context, each member
 * read when a listener asks for it (most requests are plain successes that no rule looks into, so
 * the body is never parsed and most members never read, the clocks not even read again). Whether
 * the caller's account was reset or deleted is read when asked.
 */
class FinishedExchange implements RequestExchange {
  private ended: { real: number; virtual: number } | undefined;
  private parsedBody: { value: unknown } | undefined;

  constructor(
    private readonly ctx: SandboxContext,
    readonly realStart: number,
    /** The sandbox clock at arrival: the caller's clock unless its account has its own. */
    private readonly sharedStart: number,
  ) {}

  /** Made when the request arrives; tells every listener once the writer is done with it. */
  finished(): void {
    const listeners = this.ctx.state.world.requestListeners;
    for (let i = 0; i < listeners.length; i += 1) listeners[i]!(this);
  }

  /** An own clock's arrival was read when the caller was identified (after this was made). */
  get virtualStart(): number {
    return this.ctx.state.arrivedAt ?? this.sharedStart;
  }

  /** The end, read once when first asked (during the listeners' calls: the request has just finished). */
  private get end(): { real: number; virtual: number } {
    if (this.ended === undefined) {
      const { world } = this.ctx.state;
      // The caller's clock: an own clock's arrival was read when the caller was identified.
      this.ended = { real: world.realTime(), virtual: (this.ctx.state.time ?? world.sharedTime).clock.now() };
    }
    return this.ended;
  }
  get realEnd(): number {
    return this.end.real;
  }
  get virtualEnd(): number {
    return this.end.virtual;
  }

  /** Read when asked, so a listener that judges the request later (its body arrived after the answer) sees a reset made meanwhile. */
  get accountForgotten(): boolean {
    const { world, caller } = this.ctx.state;
    return caller?.kind === 'api_key' && world.store.forAccount(caller.account.id) !== caller.account;
  }

  private get answer() {
    return this.ctx.state.reply?.body as { error?: { code?: unknown }; id?: unknown; status?: unknown } | undefined;
  }
  private get quota(): boolean {
    return this.status === 429 && this.ctx.state.rateLimit?.allowed === false;
  }
  get requestId() {
    return this.ctx.state.requestId;
  }
  get accountId() {
    const { caller } = this.ctx.state;
    return caller?.kind === 'api_key' ? caller.account.id : null;
  }
  get apiKeyId() {
    const { caller } = this.ctx.state;
    return caller?.kind === 'api_key' ? caller.key.id : null;
  }
  get callerIp() {
    return clientIp(this.ctx);
  }
  get method() {
    return this.ctx.method;
  }
  get path() {
    return this.ctx.path;
  }
  get query() {
    return this.ctx.query as Record<string, string | string[]>;
  }
  get operationId() {
    return this.ctx.state.operation?.operationId ?? null;
  }
  get body() {
    return (this.parsedBody ??= { value: sentBody(this.ctx) }).value;
  }
  get idempotencyKey() {
    return this.ctx.state.idempotencyKey ?? null;
  }
  get status() {
    return answeredNothing(this.ctx.state.fault) ? null : replyStatus(this.ctx);
  }
  get headers() {
    const { headers } = this.ctx.state;
    return {
      retryAfter: headers.get('Retry-After') ?? null,
      deprecation: headers.get('Deprecation') ?? null,
      sunset: headers.get('Sunset') ?? null,
    };
  }
  get fault() {
    return this.ctx.state.fault?.type ?? null;
  }
  get closedEarly() {
    const { fault, reply, written } = this.ctx.state;
    return !fault && reply !== undefined && written !== true;
  }
  get scenarioIds() {
    return this.ctx.state.scenarios?.scenarioIds() ?? [];
  }
  get idempotencyKeySent() {
    const sent = this.ctx.get('Idempotency-Key');
    return sent === '' ? null : sent;
  }
  get errorCode() {
    const code = this.answer?.error?.code;
    return typeof code === 'string' ? code : null;
  }
  get rateLimitedBy() {
    return this.status !== 429 ? null : this.quota ? 'quota' : 'scenario';
  }
  get rateLimitResetAt() {
    return this.quota ? this.ctx.state.rateLimit!.resetAt : null;
  }
  get tookEffect() {
    const status = this.status;
    return this.ctx.state.fault?.when === 'after' && status !== null && status < 400;
  }
  get job() {
    const answer = this.answer;
    return this.operationId === 'getJob' && this.status === 200 && typeof answer?.id === 'string' && typeof answer.status === 'string'
      ? { id: answer.id, status: answer.status }
      : null;
  }
  get lateBody() {
    return lateBody(this.ctx);
  }
  get scenarioNames() {
    return this.ctx.state.scenarios?.scenarioNames() ?? [];
  }
}

export function requestFinished(prefix: string): FinishWatcher {
  return {
    arrived(ctx) {
      const { world } = ctx.state;
      if (world.requestListeners.length === 0 || !isUnder(ctx.path, prefix)) return undefined;
      return new FinishedExchange(ctx, world.realTime(), world.clock.now());
    },
  };
}
