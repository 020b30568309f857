/**
 * One declaration per operation. The router, request validation, the OpenAPI document and the
 * contract tests all read these; nothing about an operation is written twice.
 */
import type { VirtualClock } from '../clock/virtual-clock.js';
import type { JobFactory, JobServices } from '../jobs/create.js';
import type { JobOutcomeRule } from '../jobs/outcome.js';
import type { RateLimiter } from '../protocol/rate-limiter.js';
import type { ApiKeyRecord, JobRecord, KeyAccess } from '../store/records.js';
import type { EventType } from './event-types.js';
import type { AccountStore } from '../store/store.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A JSON Schema (the draft-07 / 2020-12 common subset, so OpenAPI 3.1 can embed it as is). */
export type JsonSchema = Record<string, unknown>;

export interface NewApiKey {
  name?: string | null | undefined;
  access?: KeyAccess | undefined;
  expiresAt?: string | null | undefined;
}

/**
 * What handlers may use of the world their request captured (an allow-list): clock, ids, settings,
 * key creation, job settling. The cross-tenant store, the journal, the scenario engine and reset are
 * not in it, so a handler cannot reach another account (or the world's controls) without the
 * compiler refusing it. An interface here, not a `Pick` of the world, so the layer every resource
 * imports does not depend on the one that boots the world; made by one factory, per time domain
 * (src/sandbox/time-domain.ts).
 */
export interface HandlerServices extends JobServices {
  readonly clock: VirtualClock;
  timestamp(): string;
  readonly rateLimiter: RateLimiter;
  readonly jobOutcomeRules: JobOutcomeRule[];
  /** Brings all the account's jobs up to the clock, charging credits for completed ones (idempotent). */
  settleJobs(account: AccountStore): void;
  /** Settles only the jobs that have ended by now (what a credit check needs). */
  settleDueJobs(account: AccountStore): void;
  /** Brings one job up to the clock. */
  settleJob(account: AccountStore, job: JobRecord): void;
  /** Creates a key with a fresh secret; the secret is returned once and kept only in the token index. */
  createApiKey(account: AccountStore, input?: NewApiKey): { key: ApiKeyRecord; token: string };
}

/**
 * Where a handler records the webhook events its request causes (contract §4.3), at the place the
 * state changes. Nothing is sent from here: the events are published right after the answer has
 * been written (src/http/publish-events.ts), in the world the request captured.
 */
export interface EventSink {
  /** An event of `type` whose `data.object` is `object`, the resource exactly as the answer shows it. */
  emit(type: EventType, object: unknown): void;
  /** A job just created: its `job.completed` / `job.failed` event comes when the account's clock reaches its end. */
  watchJob(job: JobRecord): void;
}

export interface HandlerInput<Body, Query, Params> {
  /** The caller's account, already scoped: the only account a handler can reach. */
  store: AccountStore;
  apiKey: ApiKeyRecord;
  body: Body;
  query: Query;
  params: Params;
  sandbox: HandlerServices;
  /** The request path including `/v1` (the `url` of list envelopes). */
  path: string;
  /** Creates this request's jobs: the scenarios acting on the request decide their outcome first. */
  jobs: JobFactory;
  /** Webhook events caused by this request (contract §4.3). */
  events: EventSink;
}

export interface HandlerResult {
  /** Defaults to the operation's success status. */
  status?: number;
  body: unknown;
}

export interface SuccessResponse {
  status: number;
  description: string;
  schema: JsonSchema;
  example?: unknown;
}

export interface OperationDef<Body = unknown, Query = unknown, Params = unknown> {
  operationId: string;
  method: HttpMethod;
  /** Relative to `/v1`, OpenAPI style: `/jobs/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Section of the service specification that defines the operation, e.g. `4.1`. */
  specSection: string;
  /** Object schemas; every property of `params` is a path parameter. */
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** Whether a request body must be sent (otherwise an absent body validates as `{}`). */
  bodyRequired?: boolean;
  success: SuccessResponse;
  /** Error statuses the reference lists for this operation (spec §4). */
  errors: number[];
  /**
   * What the operation needs of the account's seeded collections (src/store/store.ts), so what a
   * request derives, in slices, before the handler runs (src/http/derive-seeded.ts):
   * - `'read'` (the default): it reads or writes them: derived when not cached;
   * - `'weight'`: it only adds records counted against the record budget (a crawl's job, a key):
   *   derived only while the seeded records have never been weighed;
   * - `false`: it neither reads, writes nor weighs them: never derived.
   * Whatever it declares, a request waits for a derivation of its account already under way, so
   * an account's requests run in the order they arrive. Tests run every operation declared
   * `false` or `'weight'` on an account whose derivation is not cached and check that nothing was
   * derived.
   */
  seededRecords?: 'read' | 'weight' | false;
  handler(input: HandlerInput<Body, Query, Params>): HandlerResult | Promise<HandlerResult>;
}

/** Identity function that keeps the generic types of a declaration. */
export function defineOperation<Body = Record<string, unknown>, Query = Record<string, unknown>, Params = Record<string, string>>(
  def: OperationDef<Body, Query, Params>,
): OperationDef<Body, Query, Params> {
  return def;
}

export function isWrite(op: Pick<OperationDef, 'method'>): boolean {
  return op.method !== 'GET';
}
