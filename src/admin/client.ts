/**
 * A typed client of the admin API (contract §3), returned as `mock.admin` by `startMockServer` and
 * usable on its own against any running sandbox: `new AdminClient('http://127.0.0.1:4010')`.
 */
import type {
  AccountStateSnapshot,
  ActivationInput,
  AdminApiKey,
  AdminCall,
  AdminRouteKey,
  ClockState,
  CreateAccountInput,
  CreateEndpointInput,
  CreateKeyInput,
  DeliveryQuery,
  EventType,
  FindingsQuery,
  HarQuery,
  JournalQuery,
  RouteAnswer,
  RouteInput,
  SetClockInput,
} from './api-types.js';
import { accountClock, accountFindingRules, advanceBody, tenantHandle, type ClockAdvanceInput, type Tenant } from './tenant-handle.js';

export type { AccountClockSetting, AccountClockState, ClockAdvanceInput, Tenant, TenantClock } from './tenant-handle.js';

// Type-only: the shapes the sandbox answers, declared once in the admin API's interface (api-types.ts).
export type {
  AccountSnapshot,
  AccountStateSnapshot,
  AccountTemplate,
  AdminAccount,
  AdminApiKey,
  AdminRouteKey,
  AdminRoutes,
  AvailableScenario,
  ClockState,
  CreateAccountInput,
  Finding,
  FindingsQuery,
  JournalEntry,
  JournalQuery,
  RuleName,
  Severity,
  PinnedRecords,
  EventType,
  WebhookEndpoint,
  WebhookEvent,
} from './api-types.js';
export type { ActiveScenarioView as ActiveScenario, ActivationInput as ActivateScenario } from './api-types.js';
export type { WebhookDeliveryView as WebhookDelivery } from './api-types.js';

/** An admin call that did not succeed; carries the envelope the sandbox answered. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`admin call failed with ${status}${error?.code ? ` ${error.code}` : ''}: ${error?.message ?? JSON.stringify(body)}`);
    this.name = 'AdminError';
  }
}

/** `?a=1&b=2` of the defined members, or '' when there are none. */
function queryString(query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  );
  const encoded = search.toString();
  return encoded ? `?${encoded}` : '';
}

export class AdminClient {
  private readonly base: string;

  constructor(
    url: string,
    private readonly adminToken?: string,
  ) {
    this.base = `${url.replace(/\/$/, '')}/__admin`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.adminToken !== undefined) headers['x-admin-token'] = this.adminToken;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not the sandbox answering (a proxy's error page, say): still an AdminError, with the text.
      parsed = text;
    }
    if (!response.ok) throw new AdminError(response.status, parsed);
    return parsed as T;
  }

  /**
   * Any admin route by its name in AdminRoutes, typed by it: `call('GET /accounts/{id}', { params: { id } })`.
   * The methods below are this with the route named.
   */
  readonly call: AdminCall = <K extends AdminRouteKey>(route: K, input: RouteInput<K>): Promise<RouteAnswer<K>> => {
    const { params, query, body } = input as {
      params?: Record<string, string>;
      query?: Record<string, string | number | undefined>;
      body?: unknown;
    };
    const space = route.indexOf(' ');
    const path = route.slice(space + 1).replace(/\{([a-z_]+)\}/g, (_match, name: string) => encodeURIComponent(params?.[name] ?? ''));
    return this.request<RouteAnswer<K>>(route.slice(0, space), `${path}${query ? queryString(query) : ''}`, body);
  };

  health(): Promise<{ status: 'ok' }> {
    return this.call('GET /health', {});
  }

  reset(): Promise<{ status: 'ok' }> {
    return this.call('POST /reset', {});
  }

  /** `GET /__admin/openapi.json`: the OpenAPI 3.1 document of the admin API (contract §5.4). */
  openApi(): Promise<RouteAnswer<'GET /openapi.json'>> {
    return this.call('GET /openapi.json', {});
  }

  readonly accounts = {
    /** A new tenant: `{ account, api_key }` with `clock`, `reset()` and `delete()` (src/admin/tenant-handle.ts). */
    create: async (input: CreateAccountInput = {}): Promise<Tenant> =>
      tenantHandle(this.call, await this.call('POST /accounts', { body: input })),
    get: (id: string): Promise<AccountStateSnapshot> => this.call('GET /accounts/{id}', { params: { id } }),
    list: (query: { limit?: number; starting_after?: string } = {}) => this.call('GET /accounts', { query }),
    update: (id: string, input: { plan: 'free' | 'paid' }) => this.call('PATCH /accounts/{id}', { params: { id }, body: input }),
    reset: (id: string) => this.call('POST /accounts/{id}/reset', { params: { id } }),
    delete: (id: string) => this.call('DELETE /accounts/{id}', { params: { id } }),
    /** Contract §5.3: everything needed to recreate the account; `create({ snapshot })` loads it. */
    snapshot: (id: string) => this.call('GET /accounts/{id}/snapshot', { params: { id } }),
    /** Which findings rules judge the account: `findingRules(id).set({ 'retry-after-ignored': 'off' })` (docs/findings.md). */
    findingRules: (id: string) => accountFindingRules(this.call, id),
    /** Every record of one collection, newest first, page by page (the state shows a large collection's head only). */
    records: (id: string, collection: string, query: { limit?: number; starting_after?: string } = {}) =>
      this.call('GET /accounts/{id}/records/{collection}', { params: { id, collection }, query }),
    /** The account's own clock: `clock(id).advance(60)`. */
    clock: (id: string) => accountClock(this.call, id),
  };

  readonly apiKeys = {
    create: (input: CreateKeyInput): Promise<AdminApiKey & { token: string }> => this.call('POST /api_keys', { body: input }),
    expire: (id: string): Promise<AdminApiKey> => this.call('POST /api_keys/{id}/expire', { params: { id } }),
    revoke: (id: string): Promise<AdminApiKey> => this.call('POST /api_keys/{id}/revoke', { params: { id } }),
  };

  readonly clock = {
    get: (): Promise<ClockState> => this.call('GET /clock', {}),
    set: (input: SetClockInput): Promise<ClockState> => this.call('POST /clock', { body: input }),
    freeze: (now?: string): Promise<ClockState> => this.call('POST /clock', { body: { mode: 'frozen', ...(now ? { now } : {}) } }),
    /** `advance(60)`, or `advance({ until: 'idle', max_seconds? })` (contract §5.4), whose answer adds `advanced_seconds`. */
    advance: (input: ClockAdvanceInput) => this.call('POST /clock/advance', { body: advanceBody(input) }),
  };

  readonly scenarios = {
    list: () => this.call('GET /scenarios', {}),
    /** `activate('rate-limited')` or `activate({ name, account_id, times, params, … })`. */
    activate: (input: ActivationInput | string) =>
      this.call('POST /scenarios', { body: typeof input === 'string' ? { name: input } : input }),
    get: (id: string) => this.call('GET /scenarios/{id}', { params: { id } }),
    deactivate: (id: string) => this.call('DELETE /scenarios/{id}', { params: { id } }),
    clear: () => this.call('DELETE /scenarios', {}),
  };

  /** The request journal: what clients sent to /v1, newest first. */
  readonly requests = {
    list: (query: JournalQuery = {}) => this.call('GET /requests', { query }),
    clear: () => this.call('DELETE /requests', {}),
    /** The journal as a HAR 1.2 log, oldest first (contract §5.3). */
    har: (query: HarQuery = {}) => this.call('GET /requests.har', { query }),
  };

  /** Contract §5.2: what clients exercised, per account or every account together. */
  readonly coverage = {
    get: (query: { account_id?: string } = {}) => this.call('GET /coverage', { query }),
    clear: () => this.call('DELETE /coverage', {}),
  };

  /** Contract §5.1: where clients broke the service's rules, newest first (docs/findings.md). */
  readonly findings = {
    list: (query: FindingsQuery = {}) => this.call('GET /findings', { query }),
    /** All findings, or one account's. */
    clear: (query: { account_id?: string } = {}) => this.call('DELETE /findings', { query }),
  };

  /** Another name for `requests`. */
  readonly journal = this.requests;

  /** Contract §4.3: endpoints, the delivery log and triggered events. */
  readonly webhooks = {
    createEndpoint: (input: CreateEndpointInput) => this.call('POST /webhook_endpoints', { body: input }),
    listEndpoints: (query: { account_id?: string; limit?: number; starting_after?: string } = {}) =>
      this.call('GET /webhook_endpoints', { query }),
    getEndpoint: (id: string) => this.call('GET /webhook_endpoints/{id}', { params: { id } }),
    deleteEndpoint: (id: string) => this.call('DELETE /webhook_endpoints/{id}', { params: { id } }),
    deliveries: (query: DeliveryQuery = {}) => this.call('GET /webhook_deliveries', { query }),
    delivery: (id: string) => this.call('GET /webhook_deliveries/{id}', { params: { id } }),
    /** Like `stripe trigger`: an event of `type` about a record of the account, sent to its endpoints. */
    trigger: (input: { account_id: string; type: EventType }) => this.call('POST /events', { body: input }),
  };
}
