/**
 * The webhooks of one world (contract §4.3): it raises events and their deliveries and makes the
 * attempts. Reset replaces the world and so the hub; `close()` stops the old one for good (its timer
 * cleared, attempts in flight aborted), so nothing of it ever writes into the new world.
 *
 * One concept per module: the endpoints and their bounds (endpoints.ts), the ids (id-streams.ts),
 * the sandbox's attempt slots (attempt-slots.ts), each account's queue (account-queue.ts),
 * when work runs (scheduler.ts, on the account clocks, from one timer for the world), the bounded
 * log and its listings (delivery-log.ts, delivery-listing.ts), the attempt (transport.ts, signing.ts,
 * retry-schedule.ts) and the twists the scenarios offer (twists.ts). What an event carries is the
 * resources' (src/resources/*\/webhook-events.ts): the hub is given the object, or a callback for a
 * job's. Each account drains its own queue, one attempt at a time, in due order; the work itself (job
 * ends, attempts started) runs in slices that yield to the event loop (src/webhooks/work-slices.ts),
 * so no amount of it delays another tenant's request for long.
 *
 * Whole at ~470 lines on purpose: raising an event and draining the account's work share the queue,
 * the log, the id streams, the attempt slots and the stamp that orders causes; split, each half would
 * reach into the other's state. (Ids, slots and endpoints are modules of their own: id-streams.ts,
 * attempt-slots.ts, endpoints.ts; the hub only wires them to the queue and the log.)
 */
import { isoTimestamp, type VirtualClock } from '../clock/virtual-clock.js';
import {
  DEFAULT_DELIVERY_LOG_BUDGET,
  DEFAULT_DELIVERY_LOG_SANDBOX_BUDGET,
  DEFAULT_WEBHOOK_CONCURRENCY,
  DEFAULT_WEBHOOK_INFLIGHT_BUDGET,
  DEFAULT_WEBHOOK_RESPONSE_LIMIT,
} from '../config/options.js';
import type { EventType, SampleContext } from '../operations/event-types.js';
import type { Incarnations } from '../random.js';
import { watchedJobs } from '../jobs/ledger.js';
import type { JobRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import { AccountQueue, NO_STAMP, type Delivery } from './account-queue.js';
import { AttemptSlots } from './attempt-slots.js';
import { Attempts, recordAttempt } from './attempts.js';
import { deliveryFilter, deliveryView, listPage, type DeliveryFilter } from './delivery-listing.js';

export type { DeliveryFilter } from './delivery-listing.js';
import { DeliveryLog, loggedPayload, type LoggedPayload } from './delivery-log.js';
import type { EndedDelivery } from './ended-delivery.js';
import { Endpoints, type NewEndpoint } from './endpoints.js';
import { IdStreams } from './id-streams.js';
import type { WebhookDeliveryView, WebhookEndpoint, WebhookEvent, WebhookEventHead } from './records.js';
import { ATTEMPT_TIMEOUT_MS } from './retry-schedule.js';
import { Scheduler } from './scheduler.js';
import { firstClaimed, newestFirst, NO_ORIGIN, type EventCause, type TwistQuery } from './twists.js';
import { SLICE_BUDGET_MS, WorkSlices } from './work-slices.js';

/** A watched job's event once it has ended (src/resources/jobs/webhook-events.ts): its type, and its object built in steps. */
export interface EndedJobEvent {
  type: EventType;
  object(): Generator<void, unknown, void>;
}

export interface WebhookHubDeps {
  seed: string;
  /** Deleted account ids' earlier lives, shared with the record streams (src/random.ts `Incarnations`); a hub of its own by default. */
  lives?: Incarnations;
  realTime: () => number;
  /** The clock the account follows (its own or the sandbox's). */
  clockOf(accountId: string): VirtualClock;
  /** The account's current store; undefined once deleted. A reset makes a new one. */
  account(accountId: string): AccountStore | undefined;
  /** Brings the job up to the account's clock (its credits charged once), as a read of it would. */
  settleJob(account: AccountStore, job: JobRecord): void;
  /** The twists the active scenarios offer for the account's webhooks, newest first (src/webhooks/twists.ts). */
  twists: TwistQuery;
  /** The `data.object` of a triggered event of `type` (the resources' event declarations). */
  sample(type: EventType, context: SampleContext): unknown;
  /** The event of a settled job, if it has ended (the jobs resource's declaration). */
  jobEvent(job: JobRecord): EndedJobEvent | undefined;
  /** Real ms an attempt may take (contract: 10 s); tests shorten it. */
  attemptTimeoutMs?: number;
  /** Deliveries kept per account; the oldest go first (a pending one is then never sent). */
  deliveryLogSize?: number;
  /** Bytes of deliveries kept per account, and by the whole sandbox (src/webhooks/delivery-log.ts). */
  deliveryLogBudget?: number;
  deliveryLogSandboxBudget?: number;
  /** Bytes of a receiver's answer read (src/webhooks/transport.ts). */
  responseLimit?: number;
  /** Attempts in flight at once, sandbox-wide (src/webhooks/attempt-slots.ts). */
  concurrency?: number;
  /** Bytes of the bodies of the attempts in flight at once, sandbox-wide (src/webhooks/attempt-slots.ts). */
  inflightBudget?: number;
  /** Real ms of webhook work per turn of the event loop (default SLICE_BUDGET_MS). */
  sliceBudgetMs?: number;
  /** Told when a delivery will not be attempted again; read as each one ends, nothing is built while it is undefined. */
  readonly deliveryEnded?: ((delivery: EndedDelivery) => void) | undefined;
}

/** Deliveries kept per account by default: as many as a test could want to read, bounded under a frozen clock. */
export const DEFAULT_DELIVERY_LOG_SIZE = 1000;

/** What a request recorded (src/http/publish-events.ts): events at their instant, and jobs to watch. */
/**
 * An event's object as JSON text, serialized when a request recorded it: the snapshot of that
 * instant, spliced into the payload as it is (a megabyte object was copied whole to keep it, then
 * copied again and serialized when published).
 */
export class SerializedObject {
  constructor(readonly json: string) {}
}

/** The payload of `head` with `data.object` the given JSON: the bytes JSON.stringify gives for the whole event (`data` is its last member). */
export function splicedPayload(head: WebhookEventHead, objectJson: string): LoggedPayload {
  return loggedPayload(`${JSON.stringify(head).slice(0, -1)},"data":{"object":`, objectJson, '}}');
}

export interface RecordedEvents {
  events: Array<{ type: EventType; object: SerializedObject; at: number }>;
  jobs: JobRecord[];
  /** The request's key and operation: what caused these events and the watched jobs'. */
  origin: EventCause;
}

export class WebhookHub {
  /** Each account's queue; an account reset replaces it (its endpoints stay, in `endpointList`). */
  private readonly accounts = new Map<string, AccountQueue>();
  private readonly endpointList: Endpoints;
  /** Every account's deliveries, bounded in count and bytes. */
  private readonly log: DeliveryLog<Delivery>;
  /**
   * One stream per account (src/webhooks/id-streams.ts), apart from the records' streams: webhooks
   * never shift a record's id, and another tenant's webhooks never shift this one's.
   */
  private readonly ids: IdStreams;
  private readonly attempts: Attempts;
  private readonly slots: AttemptSlots;
  private readonly scheduler: Scheduler;
  private closed = false;
  private seq = 0;
  /** Counts what causes work (a publish, a trigger): clock calls wait for what was caused before them. */
  private stamp = NO_STAMP;
  private readonly slices: WorkSlices;

  constructor(private readonly deps: WebhookHubDeps) {
    this.ids = new IdStreams(deps.seed, (id) => this.endpointList.get(id) !== undefined || this.log.get(id) !== undefined, deps.lives);
    this.endpointList = new Endpoints(deps.seed);
    this.attempts = new Attempts({
      seed: deps.seed,
      realTime: deps.realTime,
      timeoutMs: deps.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS,
      responseLimit: deps.responseLimit ?? DEFAULT_WEBHOOK_RESPONSE_LIMIT,
    });
    this.slots = new AttemptSlots(deps.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY, deps.inflightBudget ?? DEFAULT_WEBHOOK_INFLIGHT_BUDGET);
    const budget = {
      count: deps.deliveryLogSize ?? DEFAULT_DELIVERY_LOG_SIZE,
      bytes: deps.deliveryLogBudget ?? DEFAULT_DELIVERY_LOG_BUDGET,
      sandboxBytes: deps.deliveryLogSandboxBudget ?? DEFAULT_DELIVERY_LOG_SANDBOX_BUDGET,
    };
    // A dropped delivery gets no next attempt, even if pending: a drain may hold it in the batch it
    // is sending (drainDue skips it then).
    this.log = new DeliveryLog<Delivery>(budget, (dropped) => {
      this.accounts.get(dropped.accountId)?.due.delete(dropped);
      dropped.nextAt = undefined;
      // Its attempt may be waiting for a slot: it leaves now, letting the body go.
      this.slots.withdraw(dropped.accountId);
    });
    this.scheduler = new Scheduler({
      realTime: deps.realTime,
      clockOf: (accountId) => deps.clockOf(accountId),
      isCurrent: (queue) => this.isCurrent(queue),
      drainDue: (queue) => this.drainDue(queue),
      awaited: (queue) => this.slots.hurry(queue.id),
      stamp: () => this.stamp,
    });
    this.slices = new WorkSlices(deps.sliceBudgetMs ?? SLICE_BUDGET_MS);
  }

  // ---- endpoints ----

  createEndpoint(input: NewEndpoint): WebhookEndpoint {
    return this.endpointList.create(input, this.deps.clockOf(input.accountId).now(), this.ids.of(input.accountId, 'we'));
  }

  /**
   * An endpoint of an account loaded from a snapshot (contract §5.3): its id, secret and creation
   * instant as they were; no stream of the hub makes its id again while the world lives.
   */
  restoreEndpoint(endpoint: WebhookEndpoint): void {
    this.ids.reserve([endpoint.id]);
    this.endpointList.restore(endpoint);
  }

  endpoint(id: string): WebhookEndpoint | undefined {
    return this.endpointList.get(id);
  }

  /** Oldest first; one account's (src/webhooks/endpoints.ts bounds them), or every account's (unbounded: the admin API pages them with `endpointPage`). */
  endpoints(accountId?: string): WebhookEndpoint[] {
    return this.endpointList.list(accountId);
  }

  /** A page of endpoints, oldest first, one account's or every account's; undefined when `startingAfter` is not among them. */
  endpointPage(
    accountId: string | undefined,
    limit: number,
    startingAfter?: string,
  ): { data: WebhookEndpoint[]; hasMore: boolean } | undefined {
    return this.endpointList.page(accountId, limit, startingAfter);
  }

  /** Gone, with its pending deliveries: they end `failed` and are never attempted again. */
  deleteEndpoint(id: string): boolean {
    const endpoint = this.endpointList.delete(id);
    if (!endpoint) return false;
    const queue = this.accounts.get(endpoint.account_id);
    for (const delivery of this.log.newestFirst(endpoint.account_id)) {
      if (delivery.endpoint !== endpoint || delivery.status !== 'pending') continue;
      queue?.due.delete(delivery);
      delivery.status = 'failed';
      delivery.nextAt = undefined;
      this.ended(delivery, true);
    }
    this.slots.withdraw(endpoint.account_id);
    if (queue) this.scheduler.schedule(queue);
    return true;
  }

  // ---- events ----

  /** Whether an endpoint of the account takes events of `type`: a request builds an event only then. */
  takes(accountId: string, type: EventType): boolean {
    return this.endpointList.takes(accountId, type);
  }

  /** Events a request recorded, published after its answer; dropped if the account was reset or deleted meanwhile. */
  publish(account: AccountStore, recorded: RecordedEvents): void {
    if (this.closed || this.deps.account(account.id) !== account) return;
    // Nothing subscribed and no job to watch: nothing to keep for this account.
    if (recorded.jobs.length === 0 && this.endpointList.count(account.id) === 0) return;
    const queue = this.queueOf(account.id);
    const stamp = ++this.stamp;
    for (const job of recorded.jobs) {
      // The account's one ledger of jobs (src/jobs/ledger.ts): due at its end, after those watched before it.
      (queue.jobs ??= watchedJobs(account)).watch(job);
      queue.jobOrigins.set(job, recorded.origin);
      queue.jobStamps.set(job, stamp);
    }
    for (const { type, object, at } of recorded.events) this.raise(queue, type, object, at, recorded.origin, stamp);
    this.scheduler.kick(queue);
  }

  /** `POST /__admin/events`: an event of `type` about a record of the account (or a sample), sent like any other. */
  trigger(account: AccountStore, type: EventType): WebhookEvent {
    const now = this.deps.clockOf(account.id).now();
    // A copy: the sample may share members with the account's records, and the event is answered later.
    const object = structuredClone(this.deps.sample(type, { account, ids: this.ids.of(account.id, 'sample'), seed: this.deps.seed, now }));
    const queue = this.queueOf(account.id);
    const event = this.raise(queue, type, object, now, NO_ORIGIN, ++this.stamp, true);
    this.scheduler.kick(queue);
    return event!;
  }

  /**
   * Makes the event and one delivery per endpoint that takes its type, due at `at`. No endpoint, no
   * event (nothing would show it), unless `always`.
   */
  private raise(
    queue: AccountQueue,
    type: EventType,
    object: unknown,
    at: number,
    origin: EventCause,
    stamp: number,
    always = false,
  ): WebhookEvent | undefined {
    const endpoints = this.endpointList.taking(queue.id, type);
    if (endpoints.length === 0 && !always) return undefined;
    const head: WebhookEventHead = {
      id: this.ids.next(queue.id, 'evt'),
      object: 'event',
      type,
      created_at: isoTimestamp(at),
      account_id: queue.id,
    };
    // Already the event's own: a request's events are serialized when recorded, a job's view and a
    // sample are made for it; the payload below is serialized from it at once.
    const event: WebhookEvent = { ...head, data: { object } };
    if (endpoints.length === 0) return event;
    const payload = object instanceof SerializedObject ? splicedPayload(head, object.json) : loggedPayload(JSON.stringify(event));
    const copies = firstClaimed(this.deps.twists(queue.id, 'duplicate'), origin) ? 2 : 1;
    const badlySigned = firstClaimed(this.deps.twists(queue.id, 'wrong_secret'), origin);
    for (const endpoint of endpoints) {
      for (let copy = 0; copy < copies; copy++) this.addDelivery(queue, endpoint, event, payload, at, badlySigned, origin, stamp);
    }
    return event;
  }

  private addDelivery(
    queue: AccountQueue,
    endpoint: WebhookEndpoint,
    event: WebhookEvent,
    payload: LoggedPayload,
    at: number,
    badlySigned: boolean,
    origin: EventCause,
    stamp: number,
  ) {
    const delivery: Delivery = {
      id: this.ids.next(queue.id, 'whd'),
      seq: ++this.seq,
      accountId: queue.id,
      endpoint,
      event: { id: event.id, object: event.object, type: event.type, created_at: event.created_at, account_id: event.account_id },
      payload,
      wrongSecret: badlySigned,
      origin,
      stamp,
      status: 'pending',
      attempts: [],
      nextAt: at,
    };
    queue.due.put(at, delivery);
    // Bounded in count and bytes: the oldest go (a pending one is then never sent).
    this.log.add(delivery);
  }

  /** The jobs that ended, one step each (and one per page of an event's job view), in end order. */
  private *endJobs(queue: AccountQueue, ended: readonly JobRecord[]): Generator<void, void, void> {
    for (const job of ended) {
      yield* this.jobEnded(queue, job);
      yield;
    }
  }

  /**
   * A job reached its end on the account's clock: settled as a read would (src/jobs/settle.ts),
   * then its event, built only when an endpoint of the account takes its type (the job's view
   * renders its pages: nothing is built that nobody subscribed to), a page per step.
   */
  private *jobEnded(queue: AccountQueue, job: JobRecord): Generator<void, void, void> {
    queue.jobs?.announced(job);
    const account = this.deps.account(queue.id);
    if (!account || account.collection('jobs').get(job.id) !== job) return;
    this.deps.settleJob(account, job);
    const ended = this.deps.jobEvent(job);
    if (!ended || !this.endpointList.takes(queue.id, ended.type)) return;
    const view = yield* ended.object();
    const origin = queue.jobOrigins.get(job) ?? NO_ORIGIN;
    const stamp = queue.jobStamps.get(job) ?? NO_STAMP;
    this.raise(queue, ended.type, view, job.timeline.ends_at_ms, origin, stamp);
  }

  // ---- running deliveries ----

  /**
   * `clock` was moved (set, advanced, its mode changed): runs what is due on it by its new now, for
   * the accounts following it, and resolves once all of it has happened (src/webhooks/scheduler.ts).
   */
  clockMoved(clock: VirtualClock): Promise<void> {
    return this.scheduler.clockMoved(clock);
  }

  /** The account's own clock was moved (the first call gives it one): as `clockMoved`, for that account. */
  async accountClockMoved(accountId: string): Promise<void> {
    const queue = this.accounts.get(accountId);
    if (!queue || this.closed) return;
    await this.scheduler.accountClockMoved(queue);
  }

  /**
   * The soonest virtual instant at which something of the accounts following `clock` is due (a
   * watched job's end, a delivery's next attempt); undefined when nothing is: what a clock advance
   * `until: "idle"` moves to, step by step (contract §5.4).
   */
  nextDueOn(clock: VirtualClock): number | undefined {
    return this.closed ? undefined : this.scheduler.nextDueOn(clock);
  }

  /** As `nextDueOn`, for one account. */
  nextDueOf(accountId: string): number | undefined {
    return this.closed ? undefined : this.accounts.get(accountId)?.firstDueAt();
  }

  private isCurrent(queue: AccountQueue): boolean {
    return !this.closed && this.accounts.get(queue.id) === queue;
  }

  /**
   * Until nothing is due on the account's clock: jobs that ended raise their events, then the due
   * deliveries are attempted in due order (newest event first under `webhooks-out-of-order`). A
   * failed attempt's retry falls due at attempt + delay; if that is still within the clock's now
   * (an advance of an hour passes the 5 s and 5 min retries), the next round attempts it. Job ends
   * and the start of each attempt run in slices (`WorkSlices`); after each round the clock calls
   * whose work is done are answered.
   */
  private async drainDue(queue: AccountQueue): Promise<void> {
    const current = () => this.isCurrent(queue);
    while (current()) {
      const now = this.deps.clockOf(queue.id).now();
      const ended = queue.jobs?.dueBy(now) ?? [];
      if (ended.length > 0) await this.slices.steps(this.endJobs(queue, ended), current);
      if (!current()) return;
      let due = queue.due.upTo(now);
      if (due.length === 0) return;
      if (due.length > 1) due = newestFirst(due, this.deps.twists(queue.id, 'newest_first'));
      for (const delivery of due) {
        if (!current()) continue;
        queue.due.delete(delivery);
        // Ended or dropped while its batch was being sent: never sent, and out of the queue (no round finds it again).
        if (delivery.status !== 'pending' || delivery.nextAt === undefined) continue;
        const at = delivery.nextAt;
        await this.slices.run(() => this.attempt(queue, delivery, at, now));
      }
      this.scheduler.answerWaiters(queue);
    }
  }

  /**
   * One attempt, once it has one of the sandbox's slots (src/webhooks/attempt-slots.ts: accounts
   * whose clock call waits first, round-robin otherwise); its deadline runs from then. Whatever happened while it waited (its account
   * reset or deleted, its endpoint deleted, the delivery dropped from the log) is looked at again
   * before anything is sent.
   */
  private async attempt(queue: AccountQueue, delivery: Delivery, dueAt: number, roundNow: number): Promise<void> {
    // Hurried when a clock call of the account waits on it (or once one does: the scheduler's `awaited`).
    // Its body's bytes count against the budget of bodies in flight until the attempt ends.
    // Withdrawn while waiting (undefined) once it went stale: nothing then holds the delivery or its body.
    const stale = () => !this.isCurrent(queue) || !this.log.holds(delivery) || delivery.status !== 'pending';
    const release = await this.slots.acquire(queue.id, queue.waiters.length > 0, delivery.payload.bytes, stale);
    if (!release) return;
    try {
      if (!this.isCurrent(queue) || !this.log.holds(delivery) || delivery.status !== 'pending') return;
      // Sent now, not when due: the virtual time that passed since the round read the clock (a
      // running clock during the wait for a slot, a clock call moving it meanwhile) is the attempt's
      // too, so its retry counts from when it went out. Without a wait this is `dueAt`, so an
      // advance of an hour still passes the 5 s and 5 min retries.
      const at = dueAt + Math.max(0, this.deps.clockOf(queue.id).now() - roundNow);
      const outcome = await this.attempts.send(delivery);
      // Reset, deleted or closed meanwhile: the answer belongs to a state nobody can see any more.
      if (!this.isCurrent(queue) || !this.log.holds(delivery)) return;
      // Ended already when its endpoint was deleted during the attempt: told once, then.
      const wasPending = delivery.status === 'pending';
      const next = recordAttempt(delivery, at, outcome);
      if (next !== undefined) queue.due.put(next, delivery);
      else if (wasPending) this.ended(delivery);
    } finally {
      release();
    }
  }

  private ended(delivery: Delivery, endpointDeleted = false): void {
    const listener = this.deps.deliveryEnded;
    if (!listener) return;
    listener({
      deliveryId: delivery.id,
      accountId: delivery.accountId,
      endpointId: delivery.endpoint.id,
      eventType: delivery.event.type,
      outcome: delivery.status === 'succeeded' ? 'succeeded' : 'failed',
      endpointDeleted,
      attempts: delivery.attempts.length,
      badlySigned: delivery.wrongSecret,
      lastStatus: delivery.attempts.at(-1)?.status_code ?? null,
    });
  }

  // ---- accounts and the world ----

  /**
   * Account reset (contract §4.1): its deliveries and watched jobs are gone; its endpoints stay. Its
   * id streams go on (src/webhooks/id-streams.ts): an event id is never given twice to a receiver.
   */
  resetAccount(accountId: string): void {
    const old = this.accounts.get(accountId);
    if (!old) return;
    this.log.forgetAccount(accountId);
    this.accounts.set(accountId, new AccountQueue(accountId));
    this.scheduler.forget(old);
    this.slots.withdraw(accountId);
  }

  /** Account deletion: its endpoints, deliveries and watched jobs are gone. */
  deleteAccount(accountId: string): void {
    this.endpointList.deleteAccount(accountId);
    this.ids.forget(accountId);
    const old = this.accounts.get(accountId);
    if (!old) return;
    this.log.forgetAccount(accountId);
    this.accounts.delete(accountId);
    this.scheduler.forget(old);
    this.slots.withdraw(accountId);
  }

  /** For good: the timer cleared and attempts in flight aborted (reset, server close). Nothing waits for retries. */
  close(): void {
    this.closed = true;
    this.scheduler.close();
    // Slices waiting stop: the drains see the hub closed, and the clock calls waiting answer.
    this.slices.close();
    this.slots.close();
    this.attempts.close();
  }

  private queueOf(accountId: string): AccountQueue {
    let queue = this.accounts.get(accountId);
    if (!queue) this.accounts.set(accountId, (queue = new AccountQueue(accountId)));
    return queue;
  }

  /** Attempts waiting for a slot and the bytes of their bodies (tests and diagnostics). */
  get attemptsWaiting(): { attempts: number; bytes: number } {
    return { attempts: this.slots.waiting, bytes: this.slots.bytesWaiting };
  }

  // ---- the log ----

  delivery(id: string): WebhookDeliveryView | undefined {
    const delivery = this.log.get(id);
    return delivery && deliveryView(delivery);
  }

  /** Newest first, filtered, within a page's byte cap (src/webhooks/delivery-listing.ts); `hasMore` when more matched. */
  deliveries(filter: DeliveryFilter): { data: WebhookDeliveryView[]; hasMore: boolean } {
    // An endpoint's deliveries are its account's: only that account's log is read.
    const accountId = filter.account_id ?? this.endpointList.get(filter.endpoint_id ?? '')?.account_id;
    return listPage(this.log.newestFirst(accountId), deliveryFilter(filter), filter.limit);
  }
}
