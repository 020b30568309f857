/**
 * The webhook endpoints of a world (contract §4.3), per account and by id. An account reset keeps them; its deletion drops them.
 *
 * Bounded per account, in count and in bytes (docs/webhooks.md "Endpoints"): a tenant looping over
 * `POST /__admin/webhook_endpoints` cannot grow memory, nor the work of every event it raises (each
 * endpoint taking it gets a delivery), without bound. The bounds are constants, not settings: an
 * account needs a handful of endpoints, and 100 is many times that.
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import { validationFailed } from '../errors/api-error.js';
import type { EventType } from '../operations/event-types.js';
import { draftId, type IdGenerator } from '../random.js';
import { BTree, type BTreeOf } from '../store/btree.js';
import { PAGE_BYTES } from './delivery-listing.js';
import { acceptsType, type EventFilter, type WebhookEndpoint } from './records.js';
import { endpointSecret, SECRET_PREFIX } from './signing.js';

/** Endpoints an account keeps at most. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 100;
/** UTF-8 bytes of an account's endpoints (as the admin API shows them, JSON) kept at most: about 55 with URLs of 2,048 characters. */
export const MAX_ENDPOINT_BYTES_PER_ACCOUNT = 128 * 1024;

export interface NewEndpoint {
  accountId: string;
  url: string;
  events: EventFilter;
  secret?: string | undefined;
}

/** An account's endpoints, oldest first (a Map keeps insertion order), and the bytes they take. */
interface AccountEndpoints {
  readonly byId: Map<string, WebhookEndpoint>;
  bytes: number;
}

/** What an endpoint costs: its JSON as the admin API shows it. */
function sizeOf(endpoint: WebhookEndpoint): number {
  return Buffer.byteLength(JSON.stringify(endpoint));
}

/** The length of a drawn id (`we_` + 24) and of a drawn secret (`whsec_` + base64 of 24 bytes). */
const DRAWN_ID_PLACEHOLDER = draftId('we');
const DRAWN_SECRET_PLACEHOLDER = `${SECRET_PREFIX}${'0'.repeat(32)}`;

export class Endpoints {
  private readonly byAccount = new Map<string, AccountEndpoints>();
  private readonly byId = new Map<string, WebhookEndpoint>();
  /**
   * Every endpoint by its place in creation order (a sequence number, in a B+ tree), and each id's
   * place: a sandbox-wide page after `starting_after` starts at its cursor in O(log n) instead of
   * walking every endpoint before it (500,000 endpoints made paging quadratic). One account's list
   * is walked as it is: it holds at most MAX_ENDPOINTS_PER_ACCOUNT (twice that after a loaded
   * account's reset).
   */
  private readonly order: BTreeOf<number, WebhookEndpoint> = new BTree<number, WebhookEndpoint>();
  private readonly placeOf = new Map<string, number>();
  private nextPlace = 0;
  /** Endpoints the last page looked at (tests: a page costs its length, not its offset). */
  walked = 0;

  constructor(private readonly seed: string) {}

  /**
   * A new endpoint, its id drawn from `ids` (the account's stream), its secret derived from the id
   * unless given. Over the account's budget: 422 naming `account_id`, before any id is drawn (a
   * refused call changes nothing, the account's id stream included).
   */
  create(input: NewEndpoint, now: number, ids: IdGenerator): WebhookEndpoint {
    const endpoint: WebhookEndpoint = {
      id: DRAWN_ID_PLACEHOLDER,
      object: 'webhook_endpoint',
      account_id: input.accountId,
      url: input.url,
      events: [...input.events],
      secret: input.secret ?? DRAWN_SECRET_PLACEHOLDER,
      status: 'enabled',
      created_at: isoTimestamp(now),
    };
    this.checkRoom(input.accountId, sizeOf(endpoint));
    endpoint.id = ids.next('we');
    endpoint.secret = input.secret ?? endpointSecret(this.seed, endpoint.id);
    this.restore(endpoint);
    return endpoint;
  }

  private checkRoom(accountId: string, bytes: number): void {
    const mine = this.byAccount.get(accountId);
    const count = mine?.byId.size ?? 0;
    const used = mine?.bytes ?? 0;
    if (count >= MAX_ENDPOINTS_PER_ACCOUNT) {
      throw validationFailed({
        account_id: [`has ${count} webhook endpoints, the most an account may have (${MAX_ENDPOINTS_PER_ACCOUNT}): delete one first`],
      });
    }
    if (used + bytes > MAX_ENDPOINT_BYTES_PER_ACCOUNT) {
      throw validationFailed({
        account_id: [
          `its webhook endpoints take ${used} bytes; this one (${bytes} bytes) would pass the ${MAX_ENDPOINT_BYTES_PER_ACCOUNT} bytes an account may keep: delete one first, or use a shorter url`,
        ],
      });
    }
  }

  /**
   * Files an endpoint as it was (an account loaded from a snapshot, contract §5.3). Not refused over
   * the budget: a snapshot holds what its account had (decode checks the budget), and the reset of
   * a loaded account brings back its endpoints deleted since beside those made since.
   */
  restore(endpoint: WebhookEndpoint): void {
    let mine = this.byAccount.get(endpoint.account_id);
    if (!mine) this.byAccount.set(endpoint.account_id, (mine = { byId: new Map<string, WebhookEndpoint>(), bytes: 0 }));
    mine.byId.set(endpoint.id, endpoint);
    mine.bytes += sizeOf(endpoint);
    this.byId.set(endpoint.id, endpoint);
    const place = this.nextPlace++;
    this.placeOf.set(endpoint.id, place);
    this.order.set(place, endpoint);
  }

  get(id: string): WebhookEndpoint | undefined {
    return this.byId.get(id);
  }

  /**
   * Oldest first, one account's or every account's: at most `limit` after the endpoint
   * `startingAfter` (which must be in the list: undefined when it is not), within `maxBytes` of
   * their JSON (the first always fits, so a cursor always moves on), and whether more are left.
   * Every account's starts at its cursor (O(log n + limit)); one account's walks its few.
   */
  page(
    accountId: string | undefined,
    limit: number,
    startingAfter?: string,
    maxBytes = PAGE_BYTES,
  ): { data: WebhookEndpoint[]; hasMore: boolean } | undefined {
    let source: Iterable<WebhookEndpoint>;
    if (accountId === undefined) {
      const place = startingAfter === undefined ? 0 : this.placeOf.get(startingAfter);
      if (place === undefined) return undefined;
      source = this.sandboxWideFrom(startingAfter === undefined ? place : place + 1);
    } else {
      const all = this.byAccount.get(accountId)?.byId;
      if (startingAfter !== undefined && !all?.has(startingAfter)) return undefined;
      source = afterId(all?.values() ?? [], startingAfter);
    }
    const data: WebhookEndpoint[] = [];
    let bytes = 0;
    this.walked = 0;
    for (const endpoint of source) {
      this.walked += 1;
      if (data.length === limit) return { data, hasMore: true };
      const size = sizeOf(endpoint);
      if (data.length > 0 && bytes + size > maxBytes) return { data, hasMore: true };
      bytes += size;
      data.push(endpoint);
    }
    return { data, hasMore: false };
  }

  private *sandboxWideFrom(place: number): Generator<WebhookEndpoint, void, void> {
    for (const [, endpoint] of this.order.entries(place)) yield endpoint;
  }

  /** Oldest first: one account's (at most MAX_ENDPOINTS_PER_ACCOUNT, besides a loaded account's), or every account's. */
  list(accountId?: string): WebhookEndpoint[] {
    if (accountId === undefined) return [...this.byId.values()];
    return [...(this.byAccount.get(accountId)?.byId.values() ?? [])];
  }

  count(accountId: string): number {
    return this.byAccount.get(accountId)?.byId.size ?? 0;
  }

  /** The account's endpoints that take events of `type`, oldest first. */
  taking(accountId: string, type: EventType): WebhookEndpoint[] {
    return this.list(accountId).filter((endpoint) => acceptsType(endpoint.events, type));
  }

  takes(accountId: string, type: EventType): boolean {
    for (const endpoint of this.byAccount.get(accountId)?.byId.values() ?? []) if (acceptsType(endpoint.events, type)) return true;
    return false;
  }

  /** Gone; undefined when there was none. */
  delete(id: string): WebhookEndpoint | undefined {
    const endpoint = this.byId.get(id);
    if (!endpoint) return undefined;
    this.byId.delete(id);
    this.unplace(id);
    const mine = this.byAccount.get(endpoint.account_id);
    if (mine) {
      mine.byId.delete(id);
      mine.bytes -= sizeOf(endpoint);
      if (mine.byId.size === 0) this.byAccount.delete(endpoint.account_id);
    }
    return endpoint;
  }

  /** Account deletion: its endpoints are gone. */
  deleteAccount(accountId: string): void {
    for (const id of this.byAccount.get(accountId)?.byId.keys() ?? []) {
      this.byId.delete(id);
      this.unplace(id);
    }
    this.byAccount.delete(accountId);
  }

  private unplace(id: string): void {
    const place = this.placeOf.get(id);
    if (place === undefined) return;
    this.placeOf.delete(id);
    this.order.delete(place);
  }
}

/** The endpoints of `all` (in order) after the one `id` (all of them without one). */
function* afterId(all: Iterable<WebhookEndpoint>, id: string | undefined): Generator<WebhookEndpoint, void, void> {
  let started = id === undefined;
  for (const endpoint of all) {
    if (started) yield endpoint;
    else started = endpoint.id === id;
  }
}

/** Whether `endpoints` (a snapshot's) fit one account's budget; the problem, if not. */
export function endpointBudgetProblem(endpoints: readonly WebhookEndpoint[]): string | undefined {
  if (endpoints.length > MAX_ENDPOINTS_PER_ACCOUNT)
    return `holds ${endpoints.length} endpoints; an account keeps at most ${MAX_ENDPOINTS_PER_ACCOUNT}`;
  const bytes = endpoints.reduce((sum, endpoint) => sum + sizeOf(endpoint), 0);
  if (bytes > MAX_ENDPOINT_BYTES_PER_ACCOUNT)
    return `holds ${bytes} bytes of endpoints; an account keeps at most ${MAX_ENDPOINT_BYTES_PER_ACCOUNT}`;
  return undefined;
}
