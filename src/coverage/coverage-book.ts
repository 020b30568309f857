/**
 * Coverage (contract §5.2): which operations a client called, which statuses it got, which scenarios
 * and faults acted on its requests and how its webhooks fared, counted as requests and deliveries
 * finish. Independent of the journal: counts survive its wrap, its budget and `journalSize: 0`.
 *
 * Narrow on purpose: the book is fed plain facts (a request's operation, status, fault and scenarios; an `EndedDelivery`) and knows
 * nothing of HTTP, the world or the OpenAPI document; the catalog of operations and their documented
 * statuses comes in when a view is made. An account that never sent a request holds nothing: its
 * counts are made at its first request.
 *
 * Bounded without a setting: per account at most one record per operation of the table, one
 * counter per distinct status (100–599), scenario name (the catalog's) and fault name (the fault
 * types), and one per webhook event type (the event catalog's).
 */

/** What the book needs of a webhook delivery that has ended (succeeded, or failed for good). */
export interface EndedDelivery {
  account_id: string;
  event_type: string;
  succeeded: boolean;
  /** Its attempts that failed (a retried success counts its failures too). */
  failed_attempts: number;
}

/** One /v1 operation as the OpenAPI document describes it. */
export interface CatalogOperation {
  operation_id: string;
  method: string;
  /** The path template, including `/v1` (e.g. `/v1/jobs/{id}`). */
  path: string;
  /** The explicit status codes the document lists for it, ascending; ranges and `default` left out. */
  documented_statuses: readonly number[];
}

export interface OperationCoverage {
  operation_id: string;
  method: string;
  path: string;
  calls: number;
  statuses: Record<string, number>;
  documented_statuses: number[];
  untested_statuses: number[];
  scenarios: Record<string, number>;
  faults: Record<string, number>;
}

export interface WebhookCoverage {
  deliveries: number;
  succeeded: number;
  failed_attempts: number;
}

export interface CoverageView {
  object: 'coverage';
  account_id: string | null;
  operations: OperationCoverage[];
  webhooks: Record<string, WebhookCoverage>;
  summary: { operations_called: number; operations_total: number; statuses_seen: number; statuses_documented: number };
}

class OperationCounts {
  calls = 0;
  readonly statuses = new Map<number, number>();
  readonly scenarios = new Map<string, number>();
  readonly faults = new Map<string, number>();
}

class AccountCoverage {
  readonly operations = new Map<string, OperationCounts>();
  readonly webhooks = new Map<string, WebhookCoverage>();
}

function bump<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** A count map as a JSON object, keys in order (numbers ascending, names alphabetically): the same bytes for the same counts. */
function sortedRecord<K extends string | number>(map: ReadonlyMap<K, number>): Record<string, number> {
  const record = Object.create(null) as Record<string, number>;
  const keys = [...map.keys()].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : 1));
  for (const key of keys) record[String(key)] = map.get(key)!;
  return record;
}

/** The key of requests without a known account: in the all-accounts view only. */
const ANONYMOUS = '\u0000anonymous';

export class CoverageBook {
  private readonly accounts = new Map<string, AccountCoverage>();

  /**
   * Counts a finished /v1 request of a known operation: a call, its status (when the client got
   * one and no fault took it), the names of the scenarios that acted on it and its fault. Member by
   * member, so a request makes no object to be counted. `accountId` null: a request without a
   * known key.
   */
  count(accountId: string | null, operationId: string, status: number | null, fault: string | null, scenarios: readonly string[]): void {
    const counts = this.operationOf(accountId ?? ANONYMOUS, operationId);
    counts.calls += 1;
    if (status !== null && fault === null) bump(counts.statuses, status);
    for (let i = 0; i < scenarios.length; i += 1) bump(counts.scenarios, scenarios[i]!);
    if (fault !== null) bump(counts.faults, fault);
  }

  deliveryEnded(delivery: EndedDelivery): void {
    const account = this.accountOf(delivery.account_id);
    let counts = account.webhooks.get(delivery.event_type);
    if (!counts) account.webhooks.set(delivery.event_type, (counts = { deliveries: 0, succeeded: 0, failed_attempts: 0 }));
    counts.deliveries += 1;
    if (delivery.succeeded) counts.succeeded += 1;
    counts.failed_attempts += delivery.failed_attempts;
  }

  /** Account reset and delete (contract §5.2): the account's counts go. */
  forget(accountId: string): void {
    this.accounts.delete(accountId);
  }

  /** `DELETE /__admin/coverage`: every account's counts go. */
  clear(): void {
    this.accounts.clear();
  }

  /** Whether the account holds counts (an idle one holds none). */
  holds(accountId: string): boolean {
    return this.accounts.has(accountId);
  }

  /** Accounts holding counts (requests without a known account not among them). */
  get size(): number {
    return this.accounts.size - (this.accounts.has(ANONYMOUS) ? 1 : 0);
  }

  /**
   * The coverage of one account, or of every account together (`accountId` null: requests without
   * a known account included), over every operation of `catalog`, uncalled ones too.
   */
  view(accountId: string | null, catalog: readonly CatalogOperation[]): CoverageView {
    const sources = accountId === null ? [...this.accounts.values()] : [this.accounts.get(accountId)].filter((a) => a !== undefined);
    let statusesSeen = 0;
    let statusesDocumented = 0;
    let called = 0;
    const operations = catalog.map((op): OperationCoverage => {
      const merged = new OperationCounts();
      for (const source of sources) {
        const counts = source.operations.get(op.operation_id);
        if (!counts) continue;
        merged.calls += counts.calls;
        for (const [status, n] of counts.statuses) bump(merged.statuses, status, n);
        for (const [name, n] of counts.scenarios) bump(merged.scenarios, name, n);
        for (const [name, n] of counts.faults) bump(merged.faults, name, n);
      }
      const documented = [...op.documented_statuses];
      const untested = documented.filter((status) => !merged.statuses.has(status));
      statusesDocumented += documented.length;
      statusesSeen += documented.length - untested.length;
      if (merged.calls > 0) called += 1;
      return {
        operation_id: op.operation_id,
        method: op.method,
        path: op.path,
        calls: merged.calls,
        statuses: sortedRecord(merged.statuses),
        documented_statuses: documented,
        untested_statuses: untested,
        scenarios: sortedRecord(merged.scenarios),
        faults: sortedRecord(merged.faults),
      };
    });
    const webhooks = new Map<string, WebhookCoverage>();
    for (const source of sources) {
      for (const [type, counts] of source.webhooks) {
        const into = webhooks.get(type) ?? { deliveries: 0, succeeded: 0, failed_attempts: 0 };
        webhooks.set(type, {
          deliveries: into.deliveries + counts.deliveries,
          succeeded: into.succeeded + counts.succeeded,
          failed_attempts: into.failed_attempts + counts.failed_attempts,
        });
      }
    }
    const webhookRecord = Object.create(null) as Record<string, WebhookCoverage>;
    for (const type of [...webhooks.keys()].sort()) webhookRecord[type] = webhooks.get(type)!;
    return {
      object: 'coverage',
      account_id: accountId,
      operations,
      webhooks: webhookRecord,
      summary: {
        operations_called: called,
        operations_total: catalog.length,
        statuses_seen: statusesSeen,
        statuses_documented: statusesDocumented,
      },
    };
  }

  private accountOf(accountId: string): AccountCoverage {
    let account = this.accounts.get(accountId);
    if (!account) this.accounts.set(accountId, (account = new AccountCoverage()));
    return account;
  }

  private operationOf(accountId: string, operationId: string): OperationCounts {
    const account = this.accountOf(accountId);
    let counts = account.operations.get(operationId);
    if (!counts) account.operations.set(operationId, (counts = new OperationCounts()));
    return counts;
  }
}
