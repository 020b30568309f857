/**
 * One account's webhook work: its deliveries due by their next attempt, the jobs it watches by their
 * end (in the account's one ledger of jobs, src/jobs/ledger.ts), and the clock calls waiting for
 * them. Replaced on account reset, so a drain or an attempt in flight can tell its account is stale
 * (the hub's and the scheduler's shared record of an account).
 */
import type { WatchedJobs } from '../jobs/ledger.js';
import type { JobRecord } from '../store/records.js';
import { OrderedIndex } from '../store/ordered-index.js';
import type { LoggedPayload } from './delivery-log.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookEndpoint, WebhookEventHead } from './records.js';
import type { EventCause } from './twists.js';

/** The stamp of work caused before any clock call counted (a job watched by nobody's publish). */
export const NO_STAMP = 0;

export interface Delivery {
  readonly id: string;
  readonly seq: number;
  readonly accountId: string;
  readonly endpoint: WebhookEndpoint;
  /** The event's envelope; its `data` lives only in `payload` (a listing parses it back). */
  readonly event: WebhookEventHead;
  /**
   * The body, serialized once per event and shared by its deliveries: the same bytes (and so the same
   * signature input) on every attempt, counted once by the log's byte budget.
   */
  readonly payload: LoggedPayload;
  readonly wrongSecret: boolean;
  readonly origin: EventCause;
  /** What caused it, in the order of causes (a publish, a trigger): a clock call waits for what was caused before it. */
  readonly stamp: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Virtual ms of the next attempt while pending. */
  nextAt: number | undefined;
}

/**
 * A clock call waiting for an account's work due by `until` that was caused up to `stamp` (the
 * hub's stamp when it came): events published before it, jobs watched before it and their events,
 * and the retries of these falling due by `until`. Work caused later (by traffic meanwhile) is not
 * waited for, so steady traffic never holds a clock call.
 */
export interface Waiter {
  until: number;
  stamp: number;
  resolve(): void;
}

export class AccountQueue {
  readonly due = new OrderedIndex<Delivery>();
  /**
   * The jobs it watches, by their end (their event is due then), until announced: the account's
   * ledger of jobs, subscribed to at the first job watched; the hub keeps no index of jobs of its own.
   * A reset replaces the queue and the account's store together, so it is the current store's.
   */
  jobs: WatchedJobs | undefined;
  /** What caused each watched job (its creating request), for its events' origin. */
  readonly jobOrigins = new WeakMap<JobRecord, EventCause>();
  /** When each watched job was watched (the hub's stamp): its events count as caused then. */
  readonly jobStamps = new WeakMap<JobRecord, number>();
  /** True while a drain runs; the account is then out of the scheduler's due index. */
  working = false;
  /** Clock calls waiting for the work due by their instant (see `Waiter`). */
  waiters: Waiter[] = [];

  constructor(readonly id: string) {}

  firstDueAt(): number | undefined {
    const a = this.due.firstAt();
    const b = this.jobs?.firstDueAt();
    return a === undefined ? b : b === undefined ? a : Math.min(a, b);
  }

  /** Whether work `waiter` waits for is left: watched jobs and deliveries due by its instant, caused up to its stamp. */
  hasWorkFor({ until, stamp }: Omit<Waiter, 'resolve'>): boolean {
    for (const job of this.jobs?.dueBy(until) ?? []) if ((this.jobStamps.get(job) ?? NO_STAMP) <= stamp) return true;
    for (const delivery of this.due.upTo(until)) if (delivery.stamp <= stamp) return true;
    return false;
  }
}
