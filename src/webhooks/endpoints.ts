/** The webhook endpoints of a world (contract §4.3), per account and by id. An account reset keeps them; its deletion drops them. */
import { isoTimestamp } from '../clock/virtual-clock.js';
import type { EventType } from '../operations/event-types.js';
import type { IdGenerator } from '../random.js';
import { acceptsType, type EventFilter, type WebhookEndpoint } from './records.js';
import { endpointSecret } from './signing.js';

export interface NewEndpoint {
  accountId: string;
  url: string;
  events: EventFilter;
  secret?: string | undefined;
}

export class Endpoints {
  /** Per account, oldest first (a Map keeps insertion order). */
  private readonly byAccount = new Map<string, Map<string, WebhookEndpoint>>();
  private readonly byId = new Map<string, WebhookEndpoint>();

  constructor(private readonly seed: string) {}

  /** A new endpoint, its id drawn from `ids` (the account's stream), its secret derived from the id unless given. */
  create(input: NewEndpoint, now: number, ids: IdGenerator): WebhookEndpoint {
    const id = ids.next('we');
    const endpoint: WebhookEndpoint = {
      id,
      object: 'webhook_endpoint',
      account_id: input.accountId,
      url: input.url,
      events: [...input.events],
      secret: input.secret ?? endpointSecret(this.seed, id),
      status: 'enabled',
      created_at: isoTimestamp(now),
    };
    this.restore(endpoint);
    return endpoint;
  }

  /** Files an endpoint as it was (an account loaded from a snapshot, contract §5.3). */
  restore(endpoint: WebhookEndpoint): void {
    let mine = this.byAccount.get(endpoint.account_id);
    if (!mine) this.byAccount.set(endpoint.account_id, (mine = new Map<string, WebhookEndpoint>()));
    mine.set(endpoint.id, endpoint);
    this.byId.set(endpoint.id, endpoint);
  }

  get(id: string): WebhookEndpoint | undefined {
    return this.byId.get(id);
  }

  /** Oldest first; one account's, or every account's. */
  list(accountId?: string): WebhookEndpoint[] {
    if (accountId !== undefined) return [...(this.byAccount.get(accountId)?.values() ?? [])];
    return [...this.byId.values()];
  }

  count(accountId: string): number {
    return this.byAccount.get(accountId)?.size ?? 0;
  }

  /** The account's endpoints that take events of `type`, oldest first. */
  taking(accountId: string, type: EventType): WebhookEndpoint[] {
    return this.list(accountId).filter((endpoint) => acceptsType(endpoint.events, type));
  }

  takes(accountId: string, type: EventType): boolean {
    for (const endpoint of this.byAccount.get(accountId)?.values() ?? []) if (acceptsType(endpoint.events, type)) return true;
    return false;
  }

  /** Gone; undefined when there was none. */
  delete(id: string): WebhookEndpoint | undefined {
    const endpoint = this.byId.get(id);
    if (!endpoint) return undefined;
    this.byId.delete(id);
    const mine = this.byAccount.get(endpoint.account_id);
    mine?.delete(id);
    if (mine?.size === 0) this.byAccount.delete(endpoint.account_id);
    return endpoint;
  }

  /** Account deletion: its endpoints are gone. */
  deleteAccount(accountId: string): void {
    for (const id of this.byAccount.get(accountId)?.keys() ?? []) this.byId.delete(id);
    this.byAccount.delete(accountId);
  }
}
