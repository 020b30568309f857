/** What the middlewares put on `ctx.state`, typed once. */
import type { ParameterizedContext } from 'koa';
import type { OperationDef } from '../operations/types.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { RequestScenarios } from '../scenarios/engine.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import type { Caller } from '../protocol/rate-limit.js';
import type { RateLimitStanding } from '../protocol/rate-limiter.js';
import type { FaultEffect } from '../scenarios/fault-effect.js';
import type { HeaderList, Reply } from './wire.js';
import type { World } from '../sandbox/world.js';
import type { TimeDomain } from '../sandbox/time-domain.js';
import type { RecordedEvents } from '../webhooks/hub.js';

export type { Caller } from '../protocol/rate-limit.js';

export interface SandboxState {
  /**
   * The world current when the request arrived (src/http/capture-world.ts): the only one the
   * request's middlewares and handler read, so a reset meanwhile never mixes two worlds.
   */
  world: World;
  /** The response headers staged so far (src/http/reply.ts); written with the answer. */
  headers: HeaderList;
  /** The answer, once decided (`reply`); undefined for routes that answer through `ctx.body`. */
  reply?: Reply;
  /** True once `sendReply` wrote `reply` with `headers` (Content-Type and Content-Length added). */
  written?: boolean;
  requestId: string;
  caller?: Caller;
  /** The caller's time domain, captured with the caller (src/http/identify-caller.ts, contract §4.1). */
  time?: TimeDomain;
  /** Arrival on the caller's own account clock; unset when the request follows the sandbox clock. */
  arrivedAt?: number;
  rateLimit?: RateLimitStanding;
  /** The matched operation, set by the router before the per-operation middlewares run. */
  operation?: OperationDef;
  /** The caller's account, scoped: the only store handlers see. Set by `authenticate`. */
  store?: AccountStore;
  apiKey?: ApiKeyRecord;
  /** The request as validated against the operation's declaration. Set by `validateRequest`. */
  input?: { params: Record<string, string>; query: Record<string, unknown>; body: Record<string, unknown> | undefined };
  /** The `Idempotency-Key` of a write that sent one. Set by `idempotency`. */
  idempotencyKey?: string;
  /** True when this response replays the stored first response of an idempotent write. */
  idempotentReplayed?: boolean;
  /** The scenarios matching this request and which acted on it. Set by `applyScenarios`. */
  scenarios?: RequestScenarios;
  /** A transport fault a scenario planned: `sendReply` loses the answer instead of writing it. */
  fault?: FaultEffect;
  /** Webhook events the handler recorded, published once the answer has left (src/http/publish-events.ts). */
  events?: RecordedEvents;
}

/**
 * What a request may reach of the sandbox itself: its fixed settings and the current world (for the
 * capture, and for the admin API, which acts on the current world). Not the current world's parts:
 * request code reads `ctx.state.world`, and the compiler refuses `ctx.sandbox.store` and the like.
 */
export type SandboxControl = Pick<Sandbox, 'world' | 'reset' | 'options' | 'fixture'>;

export type SandboxContext = ParameterizedContext<SandboxState> & { sandbox: SandboxControl };
export type Next = () => Promise<unknown>;
/**
 * Koa middleware over the sandbox context. Layers with nothing to do after `next()` are plain
 * functions returning `next()` rather than async ones: on the hot path every async layer costs a
 * promise and a microtask hop, and koa-compose turns a synchronous throw into a rejection anyway.
 */
export type SandboxMiddleware = (ctx: SandboxContext, next: Next) => Promise<unknown>;
