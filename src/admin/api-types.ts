/**
 * The admin API's interface (contract §3, §4, §5.4): every route by `METHOD /path` with what it takes
 * and what it answers. One declaration, read three ways: the route declarations (src/admin/operations.ts)
 * must answer these types, the client (client.ts) calls the routes through them, and the dashboard
 * (src/ui/page/) reads them with type-only imports, which the browser bundle erases.
 *
 * Type declarations only, and no import of a route: the types of the answers are those of the code
 * that builds them (the journal, the scenario engine, the webhook hub), imported as types.
 */
import type { ClockMode } from '../clock/virtual-clock.js';
import type { AccountTemplate } from '../fixture/fixture-file.js';
import type { Finding, FindingFilter, RuleName, RuleSetting, RuleSettings, Severity } from '../findings/findings.js';
import type { EventType } from '../operations/event-types.js';
import type { CoverageView } from '../coverage/coverage-book.js';
import type { JournalEntry, JournalFilter, TruncatedBody } from '../protocol/request-journal.js';
import type { ActivationInput, ActiveScenarioView } from '../scenarios/engine.js';
import type { AccountSnapshot } from '../snapshot/shape.js';
import type { PinnedRecords } from '../store/pinned-records.js';
import type { KeyAccess, Plan } from '../store/records.js';
import type { DeliveryFilter } from '../webhooks/hub.js';
import type { DeliveryAttempt, EventFilter, WebhookDeliveryView, WebhookEndpoint, WebhookEvent } from '../webhooks/records.js';
import type { accountState } from './account-state.js';

export type { AccountTemplate, ActivationInput, ActiveScenarioView, EventFilter, EventType, JournalEntry, PinnedRecords, Plan };
export type { Finding, RuleName, RuleSetting, RuleSettings, Severity };

/** Rules by name, each `'on'` or `'off'` (docs/findings.md "Silencing a rule"); rules not named keep their setting. */
export type RuleChanges = Partial<Record<RuleName, RuleSetting>>;

/** What `GET|POST /__admin/accounts/{id}/findings/rules` answers: every rule and whether it judges the account. */
export interface FindingRules {
  object: 'finding_rules';
  account_id: string;
  rules: RuleSettings;
}
export type { AccountSnapshot, CoverageView, DeliveryAttempt, TruncatedBody, WebhookDeliveryView, WebhookEndpoint, WebhookEvent };

/** `"clock"` of an account: its instant, its mode, and whether it is the sandbox clock. */
export interface AccountClockState {
  now: string;
  mode: ClockMode;
  shared: boolean;
}

/** `shared` (the default), `frozen`, `running`, or an ISO 8601 instant to freeze the account's own clock at. */
export type AccountClockSetting = 'shared' | 'frozen' | 'running' | (string & {});

/** The body of `POST /__admin/accounts` (contract §3.2, §4.1; the record sources: docs/fixtures.md). */
export interface CreateAccountInput {
  /** The account's own id (`acct_…`), so its ids and tokens do not depend on the accounts made before it; drawn when left out. */
  id?: string;
  plan?: Plan;
  name?: string;
  /** `shared` (default), `frozen`, `running` or an ISO 8601 instant: the account's own clock. */
  clock?: AccountClockSetting;
  /** Take the template of this fixture: a name under the package's fixtures/, or a path to a fixture file inside the server's working directory. */
  fixture?: string;
  /** The template inline, in the shape of a fixture's `template` (not with `fixture`). */
  template?: AccountTemplate;
  /** Records with fixed ids and the fields you set, in the shape of a fixture account's `pinned`. */
  pinned?: PinnedRecords;
  /**
   * Recreate an account from `accounts.snapshot(id)` (contract §5.3), here or in another sandbox with
   * the same seed and fixtures: alone, or with `clock` (frozen at the snapshot's instant by default).
   */
  snapshot?: AccountSnapshot;
  /** Rules of the findings turned on or off for this account from its creation (docs/findings.md "Silencing a rule"). */
  findings?: { rules?: RuleChanges };
}

export interface AdminAccount {
  id: string;
  object: 'account';
  name: string;
  plan: Plan;
  created_at: string;
  credits: { balance: number; used: number };
  /** Contract §4.1: the account's clock. */
  clock: AccountClockState;
}

export interface AdminApiKey {
  object: 'api_key';
  id: string;
  name: string | null;
  last4: string;
  token_type: string;
  token: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
  access?: KeyAccess;
  revoked_at?: string | null;
}

export interface ClockState {
  now: string;
  mode: ClockMode;
}

/** `POST …/clock`: a mode, an instant, or both. */
export interface SetClockInput {
  mode?: ClockMode;
  now?: string;
}

/** `POST …/clock/advance` (contract §3.3, §5.4): `seconds`, or `until: "idle"` with an optional `max_seconds`. */
export interface AdvanceClockInput {
  seconds?: number;
  until?: 'idle';
  max_seconds?: number;
}

/** An until-idle advance adds how far it moved the clock (contract §5.4). */
export interface AdvancedBy {
  advanced_seconds?: number;
}

/**
 * `GET /__admin/accounts/{id}` (contract §3.2): every collection of the account with its record type,
 * jobs summarized, and the credits: the type the server's `accountState` returns, so the two agree.
 */
export type AccountStateSnapshot = ReturnType<typeof accountState>;

/** A scenario file the sandbox can activate (`GET /__admin/scenarios` `available`). */
export interface AvailableScenario {
  name: string;
  description: string;
  /** Declared params: name -> JSON Schema with its `default`. */
  params: Record<string, Record<string, unknown>>;
}

/** A page of a listing. */
export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export type JournalQuery = Partial<JournalFilter>;
/** `GET /__admin/requests.har`: the journal's filters and how many of the newest entries to export. */
export interface HarQuery {
  account_id?: string;
  api_key_id?: string;
  operation_id?: string;
  limit?: number;
}
/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/); its entries as the spec writes them. */
export interface HarDocument {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: unknown[];
    entries: Record<string, unknown>[];
    comment?: string;
  };
}
export type DeliveryQuery = Partial<DeliveryFilter>;
/** The filters of `GET /__admin/findings` (contract §5.1). */
export type FindingsQuery = Partial<FindingFilter>;

export interface CreateKeyInput {
  account_id: string;
  name?: string | null;
  access?: KeyAccess;
  expires_at?: string | null;
}

export interface CreateEndpointInput {
  account_id: string;
  url: string;
  events?: EventFilter;
  secret?: string;
}

type Id = { id: string };
type Deleted<T extends string> = { id: string; object: T; deleted: true };

/**
 * Every admin route, by `METHOD /path` (path relative to /__admin, parameters as `{name}`): its path
 * parameters, query, body and success answer. A member left out is one the route does not take.
 */
export interface AdminRoutes {
  'GET /health': { answer: { status: 'ok' } };
  'POST /reset': { answer: { status: 'ok' } };
  'GET /openapi.json': { answer: Record<string, unknown> & { openapi: string; paths: Record<string, unknown> } };
  'GET /accounts': { query: { limit?: number; starting_after?: string }; answer: ListPage<AdminAccount> };
  'POST /accounts': { body: CreateAccountInput; answer: { account: AdminAccount; api_key: AdminApiKey & { token: string } } };
  'GET /accounts/{id}': { params: Id; answer: AccountStateSnapshot };
  'PATCH /accounts/{id}': { params: Id; body: { plan: Plan }; answer: { account: AdminAccount } };
  'DELETE /accounts/{id}': { params: Id; answer: Deleted<'account'> };
  'POST /accounts/{id}/reset': { params: Id; answer: { account: AdminAccount } };
  'GET /accounts/{id}/snapshot': { params: Id; answer: AccountSnapshot };
  'GET /accounts/{id}/records/{collection}': {
    params: { id: string; collection: string };
    query: { limit?: number; starting_after?: string };
    answer: ListPage<{ id: string } & Record<string, unknown>>;
  };
  'GET /accounts/{id}/clock': { params: Id; answer: AccountClockState };
  'POST /accounts/{id}/clock': { params: Id; body: SetClockInput; answer: AccountClockState };
  'POST /accounts/{id}/clock/advance': { params: Id; body: AdvanceClockInput; answer: AccountClockState & AdvancedBy };
  'POST /api_keys': { body: CreateKeyInput; answer: AdminApiKey & { token: string } };
  'POST /api_keys/{id}/expire': { params: Id; answer: AdminApiKey };
  'POST /api_keys/{id}/revoke': { params: Id; answer: AdminApiKey };
  'GET /clock': { answer: ClockState };
  'POST /clock': { body: SetClockInput; answer: ClockState };
  'POST /clock/advance': { body: AdvanceClockInput; answer: ClockState & AdvancedBy };
  'GET /scenarios': { answer: { available: AvailableScenario[]; active: ActiveScenarioView[] } };
  'POST /scenarios': { body: ActivationInput; answer: ActiveScenarioView };
  'GET /scenarios/{id}': { params: Id; answer: ActiveScenarioView };
  'DELETE /scenarios/{id}': { params: Id; answer: ActiveScenarioView & { deleted: true } };
  'DELETE /scenarios': { answer: { deleted: number } };
  'GET /requests': { query: JournalQuery; answer: ListPage<JournalEntry> };
  'DELETE /requests': { answer: { deleted: number } };
  'GET /findings': { query: FindingsQuery; answer: ListPage<Finding> };
  'DELETE /findings': { query: { account_id?: string }; answer: { deleted: number } };
  'GET /accounts/{id}/findings/rules': { params: Id; answer: FindingRules };
  'POST /accounts/{id}/findings/rules': { params: Id; body: { rules: RuleChanges }; answer: FindingRules };
  'GET /requests.har': { query: HarQuery; answer: HarDocument };
  'GET /coverage': { query: { account_id?: string }; answer: CoverageView };
  'DELETE /coverage': { answer: { object: 'coverage'; deleted: true } };
  'POST /webhook_endpoints': { body: CreateEndpointInput; answer: WebhookEndpoint };
  'GET /webhook_endpoints': { query: { account_id?: string; limit?: number; starting_after?: string }; answer: ListPage<WebhookEndpoint> };
  'GET /webhook_endpoints/{id}': { params: Id; answer: WebhookEndpoint };
  'DELETE /webhook_endpoints/{id}': { params: Id; answer: Deleted<'webhook_endpoint'> };
  'GET /webhook_deliveries': { query: DeliveryQuery; answer: ListPage<WebhookDeliveryView> };
  'GET /webhook_deliveries/{id}': { params: Id; answer: WebhookDeliveryView };
  'POST /events': { body: { account_id: string; type: EventType }; answer: WebhookEvent };
}

export type AdminRouteKey = keyof AdminRoutes;
type Member<K extends AdminRouteKey, M extends string> = AdminRoutes[K] extends Record<M, infer T> ? T : undefined;
export type RouteParams<K extends AdminRouteKey> = Member<K, 'params'>;
export type RouteQuery<K extends AdminRouteKey> = Member<K, 'query'>;
export type RouteBody<K extends AdminRouteKey> = Member<K, 'body'>;
export type RouteAnswer<K extends AdminRouteKey> = AdminRoutes[K]['answer'];

/** What a caller passes for route `K`: only the members the route takes. */
export type RouteInput<K extends AdminRouteKey> = (RouteParams<K> extends undefined ? unknown : { params: RouteParams<K> }) &
  (RouteQuery<K> extends undefined ? unknown : { query?: RouteQuery<K> }) &
  (RouteBody<K> extends undefined ? unknown : { body: RouteBody<K> });

/** Calls one admin route: what the client implements and what tenant handles call through. */
export type AdminCall = <K extends AdminRouteKey>(route: K, input: RouteInput<K>) => Promise<RouteAnswer<K>>;
