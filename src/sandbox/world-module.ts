/**
 * World modules: the parts of a world that follow its lifecycle (contract §4.1). A module is a name
 * and a `create` that makes its instance for one world; the instance implements the hooks it needs,
 * each optional:
 *
 * - `accountCreated(accountId)`: the account exists, its records seeded (lazily) and its clock set;
 *   its first keys may follow.
 * - `accountReset(accountId, keyIds)` / `accountDeleted(accountId, keyIds)`: forget what is kept
 *   about the account; `keyIds` are its keys just before (a key-scoped part forgets them too). Called
 *   before the account's records are restored or removed.
 * - `close()`: the world is over (sandbox reset, server close): stop timers, abort work in flight.
 * - `requestFinished(exchange)`: a /v1 request finished (src/http/request-finished.ts).
 * - `deliveryEnded(delivery)`: a webhook delivery will not be attempted again.
 *
 * The two traffic hooks cost nothing while no module implements them: the exchange and the ended
 * delivery are built only when one listens (the world lists the listeners once, when it is made).
 *
 * Adding a module: its folder (with its `create` and hooks), then one entry in WORLD_MODULES
 * (src/sandbox/modules.ts). Modules below this layer (protocol, scenarios, webhooks) implement the
 * contract structurally: their `create` types only what it reads of the world.
 */
import type { EndedDelivery } from '../webhooks/ended-delivery.js';

export type { EndedDelivery } from '../webhooks/ended-delivery.js';

export interface WorldModuleInstance {
  accountCreated?(accountId: string): void;
  accountReset?(accountId: string, keyIds: ReadonlySet<string>): void;
  accountDeleted?(accountId: string, keyIds: ReadonlySet<string>): void;
  close?(): void;
  requestFinished?(exchange: RequestExchange): void;
  deliveryEnded?(delivery: EndedDelivery): void;
}

/**
 * `World` is the world type the list is made for (src/sandbox/modules.ts names it); generic here so
 * this contract imports nothing of the world that runs it.
 */
export interface WorldModule<World, Instance extends WorldModuleInstance = WorldModuleInstance> {
  /** Unique in the list; names the module in errors and docs. */
  readonly name: string;
  /** Called once per world, in list order, after the world's own parts exist and before its first account. */
  create(world: World): Instance;
}

/**
 * What a finished /v1 request looked like, for modules fed by traffic. Built once per request,
 * after its answer was written (or lost), and shared by every listener: read it, never change it.
 */
export interface RequestExchange {
  readonly requestId: string;
  /** The caller's account and key when it sent a known key (revoked and expired included); else null. */
  readonly accountId: string | null;
  readonly apiKeyId: string | null;
  /** The client address (IPv4-mapped IPv6 written as IPv4), as rate limits count anonymous callers. */
  readonly callerIp: string;
  readonly method: string;
  /** Including `/v1`, without the query. */
  readonly path: string;
  /** The query as parsed (repeated names give arrays). */
  readonly query: Readonly<Record<string, string | string[]>>;
  /** The matched operation; null for an unknown path or method, or a 429 before routing. */
  readonly operationId: string | null;
  /** The JSON body as sent (before defaults were filled in); null when none was read or it was not JSON. */
  readonly body: unknown;
  /** The `Idempotency-Key` of a write that sent one and reached idempotency; else null. */
  readonly idempotencyKey: string | null;
  /** The status sent; with a fault after the operation, the status of the answer lost; null when nothing was answered. */
  readonly status: number | null;
  /** The answer's headers modules ask about; null when not sent. */
  readonly headers: { readonly retryAfter: string | null; readonly deprecation: string | null; readonly sunset: string | null };
  /** The transport fault that lost the answer (`connection-reset`, …, contract §4.2); null when none. */
  readonly fault: string | null;
  /** The client went away before the answer could be written (no fault): the answer counts as given, none left. */
  readonly closedEarly: boolean;
  /**
   * Ids of the scenario activations that acted on it (`prefer:<name>` for a requested one), as the
   * journal lists them; the name of a live activation is `GET /__admin/scenarios`'s.
   */
  readonly scenarioIds: readonly string[];
  /** The `Idempotency-Key` header as sent (any method, whether or not idempotency saw it); null without one. */
  readonly idempotencyKeySent: string | null;
  /** The `error.code` of an error answer the sandbox wrote; null otherwise. */
  readonly errorCode: string | null;
  /** For a 429: `quota` when the caller's real rate limit refused it, `scenario` when a scenario answered it; else null. */
  readonly rateLimitedBy: 'quota' | 'scenario' | null;
  /** For a quota 429: the reset instant (virtual ms) of the window that refused it; else null. */
  readonly rateLimitResetAt: number | null;
  /** A `when: "after"` fault lost the answer of an operation that succeeded: the write took effect. */
  readonly tookEffect: boolean;
  /** For `GET /v1/jobs/{id}` answered 200: the job and its status in that answer; else null. */
  readonly job: { readonly id: string; readonly status: string } | null;
  /**
   * A JSON body answered early (a scenario, a 401, a 429 before it was read): null when `body` is all
   * there is. Calling it reads the body once, after the answer (shared with the journal), and gives
   * its JSON value (its text when not JSON; undefined when it never arrived or was over 1 MiB).
   */
  readonly lateBody: (() => Promise<unknown>) | null;
  /** Names of the scenarios that acted on it, in the order of `scenarioIds` (coverage counts by name, contract §5.2). */
  readonly scenarioNames: readonly string[];
  /** The caller's account was reset or deleted while the request ran (contract §4.1): a module keeps nothing of it. */
  readonly accountForgotten: boolean;
  /**
   * Real ms (epoch) when the request arrived and when it finished. The end is read from the clock
   * the first time a listener asks (most never do): a listener that looks at the exchange later
   * reads it during its `requestFinished` call and keeps the number.
   */
  readonly realStart: number;
  readonly realEnd: number;
  /** Virtual ms on the caller's clock (its account's own, or the sandbox's) at arrival and at the end (the end read as `realEnd` is). */
  readonly virtualStart: number;
  readonly virtualEnd: number;
}
