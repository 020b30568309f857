/**
 * The webhooks of one world (contract §4.3): endpoints, the deliveries of each account and their
 * schedule. Reset replaces the world and so the hub; `close()` stops the old one for good (its timer
 * cleared, attempts in flight aborted), so nothing of it ever writes into the new world.
 *
 * Time: a delivery is due at a virtual instant of its account's clock (an event's own instant, then
 * each retry's). Nothing runs on a timer per delivery. Deliveries run:
 * - right after the answer of the request that caused them (`publish`);
 * - when a clock call moves a clock (`clockMoved`, `accountClockMoved`, awaited by the admin API, so
 *   everything due by the new time has happened when it answers, retries that fall due meanwhile
 *   included; what falls due later, or is caused by requests made meanwhile, is not waited for);
 * - for accounts on a running clock, from ONE real timer armed for the soonest due account of the
 *   world (src/webhooks/due-accounts.ts: O(log n) per change, a tick touches only due accounts).
 *
 * Each account drains its own queue, one attempt at a time, in due order: a receiver that never
 * answers holds up its own account's deliveries only, never another account's or any request. The
 * work itself (job ends, attempts started) runs in slices that yield to the event loop
 * (src/webhooks/work-slices.ts), so no amount of it delays another tenant's request for long.
 */
import { isoTimestamp, type VirtualClock } from '../clock/virtual-clock.js';
import { DEFAULT_DELIVERY_LOG_BUDGET, DEFAULT_DELIVERY_LOG_SANDBOX_BUDGET, DEFAULT_WEBHOOK_RESPONSE_LIMIT } from '../config/options.js';
import type { EventType } from '../operations/event-types.js';
import { IdGenerator } from '../random.js';
import type { EventCause, WebhookTwistUse } from '../scenarios/engine.js';
import type { WebhookTwist } from '../scenarios/webhook-effect.js';
import type { JobRecord } from '../store/records.js';
import { OrderedIndex } from '../store/ordered-index.js';
import type { AccountStore } from '../store/store.js';
import { jobViewInSteps } from '../resources/jobs/schemas.js';
import { deliveryView, listPage } from './delivery-listing.js';
import { DeliveryLog, loggedPayload, type LoggedPayload } from './delivery-log.js';
import { eventTypeInfo, jobEventType } from './event-catalog.js';
import {
  acceptsType,
  type DeliveryAttempt,
  type DeliveryStatus,
  type EventFilter,
  type WebhookDeliveryView,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventHead,
} from './records.js';
import { ATTEMPT_TIMEOUT_MS, nextAttemptAt } from './retry-schedule.js';
import { endpointSecret, signatureHeaders, wrongSecret } from './signing.js';
import { Connections, sendAttempt } from './transport.js';
import { DueAccounts } from './due-accounts.js';
import { SLICE_BUDGET_MS, WorkSlices } from './work-slices.js';

export interface WebhookHubDeps {
  seed: string;
  realTime: () => number;
  /** The clock the account follows (its own or the sandbox's). */
  clockOf(accountId: string): VirtualClock;
  /** The account's current store; undefined once deleted. A reset makes a new one. */
  account(accountId: string): AccountStore | undefined;
  /** Brings the job up to the account's clock (its credits charged once), as a read of it would. */
  settleJob(account: AccountStore, job: JobRecord): void;
  /** Asks the active scenarios for `twist` on this account's webhooks (ScenarioEngine.webhookTwist). */
  twist(accountId: string, twist: WebhookTwist, use: WebhookTwistUse, every?: boolean): void;
  /** Real ms an attempt may take (contract: 10 s); tests shorten it. */
  attemptTimeoutMs?: number;
  /** Deliveries kept per account; the oldest go first (a pending one is then never sent). */
  deliveryLogSize?: number;
  /** Bytes of deliveries kept per account, and by the whole sandbox (src/webhooks/delivery-log.ts). */
  deliveryLogBudget?: number;
  deliveryLogSandboxBudget?: number;
  /** Bytes of a receiver's answer read (src/webhooks/transport.ts). */
  responseLimit?: number;
  /** Real ms of webhook work per turn of the event loop (default SLICE_BUDGET_MS). */
  sliceBudgetMs?: number;
  /** Told when a delivery ends: succeeded, or failed for good (coverage, contract §5.2). */
  deliveryEnded?: (ended: { account_id: string; event_type: string; succeeded: boolean; failed_attempts: number }) => void;
}

/** Deliveries kept per account by default: as many as a test could want to read, bounded under a frozen clock. */
export const DEFAULT_DELIVERY_LOG_SIZE = 1000;

/**
 * The cause of an event nobody's request made (`POST /__admin/events`). Otherwise an event's cause
 * is the key and operation of its request (a job's events: the request that created the job); a
 * webhook scenario narrowed to a key or an operation, or whose rules `match` operations, acts on
 * the events they caused, as other scenarios act on their requests.
 */
export const NO_ORIGIN: EventCause = Object.freeze({ apiKeyId: null, operationId: null });

interface Delivery {
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

/** One account's webhooks. Replaced on account reset, so attempts in flight can tell they are stale. */
class AccountWebhooks {
  readonly endpoints = new Map<string, WebhookEndpoint>();
  readonly due = new OrderedIndex<Delivery>();
  /** Unfinished jobs by their end: their event is due then. */
  readonly jobs = new OrderedIndex<JobRecord>();
  /** What caused each watched job (its creating request), for its events' origin. */
  readonly jobOrigins = new WeakMap<JobRecord, EventCause>();
  /** When each watched job was watched (the hub's stamp): its events count as caused then. */
  readonly jobStamps = new WeakMap<JobRecord, number>();
  /** True while a drain runs; the account is then out of the hub's due index. */
  working = false;
  /** Clock calls waiting for the work due by their instant (see `Waiter`). */
  waiters: Waiter[] = [];

  constructor(readonly id: string) {}

  firstDueAt(): number | undefined {
    const a = this.due.firstAt();
    const b = this.jobs.firstAt();
    return a === undefined ? b : b === undefined ? a : Math.min(a, b);
  }
}

/**
 * A clock call waiting for an account's work due by `until` that was caused up to `stamp` (the
 * hub's stamp when it came): events published before it, jobs watched before it and their events,
 * and the retries of these falling due by `until`. Work caused later (by traffic meanwhile) is not
 * waited for, so steady traffic never holds a clock call.
 */
interface Waiter {
  until: number;
  stamp: number;
  resolve(): void;
}

/** What a request recorded (src/http/publish-events.ts): events at their instant, and jobs to watch. */
export interface RecordedEvents {
  events: Array<{ type: EventType; object: unknown; at: number }>;
  jobs: JobRecord[];
  /** The request's key and operation: what caused these events and the watched jobs'. */
  origin: EventCause;
}

export interface DeliveryFilter {
  account_id?: string;
  endpoint_id?: string;
  event_type?: EventType;
  status?: DeliveryStatus;
  limit: number;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
const NO_STAMP = 0;

export class WebhookHub {
  private readonly accounts = new Map<string, AccountWebhooks>();
  private readonly endpointIndex = new Map<string, WebhookEndpoint>();
  /** Every account's deliveries, bounded in count and bytes. */
  private readonly log: DeliveryLog<Delivery>;
  /** Its own stream, so webhooks never shift the ids of records (same seed + same requests = same bytes). */
  private readonly ids: IdGenerator;
  private readonly abort = new AbortController();
  private readonly connections = new Connections();
  private timer: NodeJS.Timeout | undefined;
  /** The real instant the timer is armed for. */
  private timerAt: number | undefined;
  private closed = false;
  private seq = 0;
  /** Counts what causes work (a publish, a trigger): clock calls wait for what was caused before them. */
  private stamp = NO_STAMP;
  /** Accounts with something due, by when, per clock (none while their drain runs). */
  private readonly due: DueAccounts<AccountWebhooks>;
  /** Accounts whose drain runs: a clock call also waits for their attempts under way. */
  private readonly working = new Set<AccountWebhooks>();
  private readonly slices: WorkSlices;
  private readonly timeoutMs: number;
  private readonly responseLimit: number;

  constructor(private readonly deps: WebhookHubDeps) {
    this.ids = new IdGenerator(`webhooks:${deps.seed}`);
    this.timeoutMs = deps.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.responseLimit = deps.responseLimit ?? DEFAULT_WEBHOOK_RESPONSE_LIMIT;
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
    });
    this.due = new DueAccounts(deps.realTime);
    this.slices = new WorkSlices(deps.sliceBudgetMs ?? SLICE_BUDGET_MS);
  }

  // ---- endpoints ----

  createEndpoint(input: { accountId: string; url: string; events: EventFilter; secret?: string | undefined }): WebhookEndpoint {
    const id = this.ids.next('we');
    const endpoint: WebhookEndpoint = {
      id,
      object: 'webhook_endpoint',
      account_id: input.accountId,
      url: input.url,
      events: [...input.events],
      secret: input.secret ?? endpointSecret(this.deps.seed, id),
      status: 'enabled',
      created_at: isoTimestamp(this.deps.clockOf(input.accountId).now()),
    };
    this.stateOf(input.accountId).endpoints.set(id, endpoint);
    this.endpointIndex.set(id, endpoint);
    return endpoint;
  }

  endpoint(id: string): WebhookEndpoint | undefined {
    return this.endpointIndex.get(id);
  }

  /** Oldest first; one account's, or every account's. */
  endpoints(accountId?: string): WebhookEndpoint[] {
    if (accountId !== undefined) return [...(this.accounts.get(accountId)?.endpoints.values() ?? [])];
    return [...this.endpointIndex.values()];
  }

  /** Gone, with its pending deliveries: they end `failed` and are never attempted again. */
  deleteEndpoint(id: string): boolean {
    const endpoint = this.endpointIndex.get(id);
    if (!endpoint) return false;
    this.endpointIndex.delete(id);
    const state = this.accounts.get(endpoint.account_id);
    state?.endpoints.delete(id);
    for (const delivery of this.log.newestFirst(endpoint.account_id)) {
      if (delivery.endpoint !== endpoint || delivery.status !== 'pending') continue;
      state?.due.delete(delivery);
      delivery.status = 'failed';
      delivery.nextAt = undefined;
      this.ended(delivery);
    }
    if (state) this.schedule(state);
    return true;
  }

  // ---- events ----

  /** Events a request recorded, published after its answer; dropped if the account was reset or deleted meanwhile. */
  publish(account: AccountStore, recorded: RecordedEvents): void {
    if (this.closed || this.deps.account(account.id) !== account) return;
    // Nothing subscribed and no job to watch: nothing to keep for this account.
    if (recorded.jobs.length === 0 && !this.accounts.get(account.id)?.endpoints.size) return;
    const state = this.stateOf(account.id);
    const stamp = ++this.stamp;
    for (const job of recorded.jobs) {
      state.jobs.put(job.timeline.ends_at_ms, job);
      state.jobOrigins.set(job, recorded.origin);
      state.jobStamps.set(job, stamp);
    }
    for (const { type, object, at } of recorded.events) this.raise(state, type, object, at, recorded.origin, stamp);
    this.kick(state);
  }

  /** `POST /__admin/events`: an event of `type` about a record of the account (or a sample), sent like any other. */
  trigger(account: AccountStore, type: EventType): WebhookEvent {
    const now = this.deps.clockOf(account.id).now();
    const object = eventTypeInfo(type).sample({ account, ids: this.ids, seed: this.deps.seed, now });
    const state = this.stateOf(account.id);
    const event = this.raise(state, type, object, now, NO_ORIGIN, ++this.stamp, true);
    this.kick(state);
    return event!;
  }

  /**
   * Makes the event and one delivery per endpoint that takes its type, due at `at`. No endpoint, no
   * event (nothing would show it), unless `always`.
   */
  private raise(
    state: AccountWebhooks,
    type: EventType,
    object: unknown,
    at: number,
    origin: EventCause,
    stamp: number,
    always = false,
  ): WebhookEvent | undefined {
    const endpoints = [...state.endpoints.values()].filter((endpoint) => acceptsType(endpoint.events, type));
    if (endpoints.length === 0 && !always) return undefined;
    const event: WebhookEvent = {
      id: this.ids.next('evt'),
      object: 'event',
      type,
      created_at: isoTimestamp(at),
      account_id: state.id,
      data: { object: structuredClone(object) },
    };
    if (endpoints.length === 0) return event;
    const payload = loggedPayload(JSON.stringify(event));
    const takesThis = (takes: (origin: EventCause) => boolean) => takes(origin);
    let copies = 1;
    this.deps.twist(state.id, 'duplicate', { wouldAct: takesThis, act: () => (copies = 2) });
    let badlySigned = false;
    this.deps.twist(state.id, 'wrong_secret', { wouldAct: takesThis, act: () => (badlySigned = true) });
    for (const endpoint of endpoints) {
      for (let copy = 0; copy < copies; copy++) this.addDelivery(state, endpoint, event, payload, at, badlySigned, origin, stamp);
    }
    return event;
  }

  private addDelivery(
    state: AccountWebhooks,
    endpoint: WebhookEndpoint,
    event: WebhookEvent,
    payload: LoggedPayload,
    at: number,
    badlySigned: boolean,
    origin: EventCause,
    stamp: number,
  ) {
    const delivery: Delivery = {
      id: this.ids.next('whd'),
      seq: ++this.seq,
      accountId: state.id,
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
    state.due.put(at, delivery);
    // Bounded in count and bytes: the oldest go (a pending one is then never sent).
    this.log.add(delivery);
  }

  /** The jobs that ended, one step each (and one per page of an event's job view), in end order. */
  private *endJobs(state: AccountWebhooks, ended: readonly JobRecord[]): Generator<void, void, void> {
    for (const job of ended) {
      yield* this.jobEnded(state, job);
      yield;
    }
  }

  /**
   * A job reached its end on the account's clock: settled as a read would (O(1), src/jobs/settle.ts),
   * then its event, built only when an endpoint of the account takes its type (the job's view
   * renders its pages: nothing is built that nobody subscribed to), a page per step.
   */
  private *jobEnded(state: AccountWebhooks, job: JobRecord): Generator<void, void, void> {
    state.jobs.delete(job);
    const account = this.deps.account(state.id);
    if (!account || account.collection('jobs').get(job.id) !== job) return;
    this.deps.settleJob(account, job);
    const type = jobEventType(job.status);
    if (!type || !this.takes(state, type)) return;
    const view = yield* jobViewInSteps(job, this.deps.seed);
    const origin = state.jobOrigins.get(job) ?? NO_ORIGIN;
    const stamp = state.jobStamps.get(job) ?? NO_STAMP;
    this.raise(state, type, view, job.timeline.ends_at_ms, origin, stamp);
  }

  private takes(state: AccountWebhooks, type: EventType): boolean {
    for (const endpoint of state.endpoints.values()) if (acceptsType(endpoint.events, type)) return true;
    return false;
  }

  // ---- running deliveries ----

  /**
   * `clock` was moved (set, advanced, its mode changed): runs what is due on it by its new now, for
   * the accounts following it, and resolves once all of it has happened (contract §3.3, §4.3):
   * attempts under way included, the work caused meanwhile by other requests not waited for.
   */
  async clockMoved(clock: VirtualClock): Promise<void> {
    if (this.closed) return;
    this.due.clockMoved(clock);
    const until = clock.now();
    const states = new Set(this.due.dueOn(clock, until));
    for (const state of this.working) if (this.deps.clockOf(state.id) === clock) states.add(state);
    const stamp = this.stamp;
    await Promise.all([...states].map((state) => this.drain(state, { until, stamp })));
    this.arm();
  }

  /** The account's own clock was moved (the first call gives it one): as `clockMoved`, for that account. */
  async accountClockMoved(accountId: string): Promise<void> {
    const state = this.accounts.get(accountId);
    if (!state || this.closed) return;
    const clock = this.deps.clockOf(accountId);
    // Filed under the clock it followed until now: filed again under this one.
    this.schedule(state);
    this.due.clockMoved(clock);
    const until = clock.now();
    const first = state.firstDueAt();
    if (state.working || (first !== undefined && first <= until)) await this.drain(state, { until, stamp: this.stamp });
    this.arm();
  }

  /** Starts the account's drain without waiting for it (after a request's answer). */
  private kick(state: AccountWebhooks): void {
    void this.drain(state);
  }

  /**
   * One drain per account at a time; a call during one joins it. With `wait`, resolves once the
   * work it names is done (or the drain ends: nothing left due, the account reset, the hub closed).
   */
  private drain(state: AccountWebhooks, wait?: Omit<Waiter, 'resolve'>): Promise<void> {
    if (!this.isCurrent(state)) return Promise.resolve();
    const done = wait ? new Promise<void>((resolve) => state.waiters.push({ ...wait, resolve })) : Promise.resolve();
    if (!state.working) {
      state.working = true;
      this.working.add(state);
      this.due.remove(state);
      void this.work(state);
    }
    return done;
  }

  private async work(state: AccountWebhooks): Promise<void> {
    try {
      await this.drainDue(state);
    } catch {
      // An attempt never throws (transport failures are failed attempts); nothing may escape a timer.
    }
    state.working = false;
    this.working.delete(state);
    for (const waiter of state.waiters.splice(0)) waiter.resolve();
    // Something raised between the drain's last look and now (a trigger in a microtask) is not left behind.
    const first = state.firstDueAt();
    if (this.isCurrent(state) && first !== undefined && first <= this.deps.clockOf(state.id).now()) this.kick(state);
    else this.schedule(state);
  }

  private isCurrent(state: AccountWebhooks): boolean {
    return !this.closed && this.accounts.get(state.id) === state;
  }

  /**
   * Until nothing is due on the account's clock: jobs that ended raise their events, then the due
   * deliveries are attempted in due order (newest event first under `webhooks-out-of-order`). A
   * failed attempt's retry falls due at attempt + delay; if that is still within the clock's now
   * (an advance of an hour passes the 5 s and 5 min retries), the next round attempts it. Job ends
   * and the start of each attempt run in slices (`WorkSlices`); after each round the clock calls
   * whose work is done are answered.
   */
  private async drainDue(state: AccountWebhooks): Promise<void> {
    const current = () => this.isCurrent(state);
    while (current()) {
      const now = this.deps.clockOf(state.id).now();
      const ended = state.jobs.upTo(now);
      if (ended.length > 0) await this.slices.steps(this.endJobs(state, ended), current);
      if (!current()) return;
      let due = state.due.upTo(now);
      if (due.length === 0) return;
      if (due.length > 1) due = this.newestFirst(state, due);
      for (const delivery of due) {
        if (!current()) continue;
        state.due.delete(delivery);
        // Ended or dropped while its batch was being sent: never sent, and out of the queue (no round finds it again).
        if (delivery.status !== 'pending' || delivery.nextAt === undefined) continue;
        const at = delivery.nextAt;
        await this.slices.run(() => this.attempt(state, delivery, at));
      }
      this.answerWaiters(state);
    }
  }

  /** Resolves the clock calls none of whose work is left (the drain being between attempts). */
  private answerWaiters(state: AccountWebhooks): void {
    if (state.waiters.length === 0) return;
    state.waiters = state.waiters.filter((waiter) => {
      if (this.hasWorkFor(state, waiter)) return true;
      waiter.resolve();
      return false;
    });
  }

  private hasWorkFor(state: AccountWebhooks, { until, stamp }: Omit<Waiter, 'resolve'>): boolean {
    for (const job of state.jobs.upTo(until)) if ((state.jobStamps.get(job) ?? NO_STAMP) <= stamp) return true;
    for (const delivery of state.due.upTo(until)) if (delivery.stamp <= stamp) return true;
    return false;
  }

  /** Files the account in the due index at its first due item (none: out of it); re-arms the timer. */
  private schedule(state: AccountWebhooks): void {
    if (state.working) return;
    const first = this.isCurrent(state) ? state.firstDueAt() : undefined;
    if (first === undefined) this.due.remove(state);
    else this.due.put(state, this.deps.clockOf(state.id), first);
    this.arm();
  }

  /**
   * `webhooks-out-of-order`: each activation sends the deliveries due together that it takes (all of
   * them, unless its scope or its rules narrow it) newest first, in the places they held; the others
   * keep theirs. An activation acts only where it takes two or more not taken by a newer one.
   */
  private newestFirst(state: AccountWebhooks, due: Delivery[]): Delivery[] {
    const result = [...due];
    const taken = new Set<Delivery>();
    const open = (takes: (origin: EventCause) => boolean) => due.filter((delivery) => !taken.has(delivery) && takes(delivery.origin));
    const use: WebhookTwistUse = {
      wouldAct: (takes) => open(takes).length > 1,
      act: (takes) => {
        const mine = open(takes);
        const places = mine.map((delivery) => due.indexOf(delivery));
        const newestFirst = [...mine].sort((a, b) => b.seq - a.seq);
        places.forEach((place, i) => (result[place] = newestFirst[i]!));
        for (const delivery of mine) taken.add(delivery);
      },
    };
    this.deps.twist(state.id, 'newest_first', use, true);
    return result;
  }

  private async attempt(state: AccountWebhooks, delivery: Delivery, at: number): Promise<void> {
    const { endpoint, event, payload } = delivery;
    const secret = delivery.wrongSecret ? wrongSecret(this.deps.seed, endpoint.id) : endpoint.secret;
    const headers = signatureHeaders(secret, event.id, new Date(this.deps.realTime()), payload.text);
    const outcome = await sendAttempt({
      url: endpoint.url,
      payload: payload.text,
      headers,
      timeoutMs: this.timeoutMs,
      responseLimit: this.responseLimit,
      abort: this.abort.signal,
      realTime: this.deps.realTime,
      connections: this.connections,
    });
    // Reset, deleted or closed meanwhile: the answer belongs to a state nobody can see any more.
    if (!this.isCurrent(state) || !this.log.holds(delivery)) return;
    delivery.attempts.push({
      at: isoTimestamp(at),
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
    });
    if (outcome.error === null) {
      delivery.status = 'succeeded';
      delivery.nextAt = undefined;
      this.ended(delivery);
      return;
    }
    // Its endpoint was deleted during the attempt: no retry.
    if (delivery.status !== 'pending') return;
    const next = nextAttemptAt(at, delivery.attempts.length);
    delivery.nextAt = next;
    if (next === undefined) {
      delivery.status = 'failed';
      this.ended(delivery);
    } else state.due.put(next, delivery);
  }

  private ended(delivery: Delivery): void {
    this.deps.deliveryEnded?.({
      account_id: delivery.accountId,
      event_type: delivery.event.type,
      succeeded: delivery.status === 'succeeded',
      failed_attempts: delivery.attempts.filter((attempt) => attempt.error !== null).length,
    });
  }

  /** ONE real timer for the world: the soonest due account on a running clock. Moved only when that instant changes. */
  private arm(): void {
    const at = this.closed ? undefined : this.due.nextRealAt();
    if (at === this.timerAt && (at === undefined || this.timer)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === undefined) return;
    this.timer = setTimeout(() => this.tick(), Math.min(MAX_TIMER_MS, Math.max(0, at - this.deps.realTime())));
    // Never what keeps a process (or a test runner) alive.
    this.timer.unref();
  }

  /** The timer fired: drains the accounts due by now on running clocks, and only them. */
  private tick(): void {
    this.timer = undefined;
    this.timerAt = undefined;
    if (this.closed) return;
    for (const state of this.due.dueNow()) this.kick(state);
    this.arm();
  }

  // ---- accounts and the world ----

  /** Account reset (contract §4.1): its deliveries and watched jobs are gone; its endpoints stay. */
  resetAccount(accountId: string): void {
    const old = this.accounts.get(accountId);
    if (!old) return;
    this.forgetDeliveries(old);
    const fresh = new AccountWebhooks(accountId);
    for (const [id, endpoint] of old.endpoints) fresh.endpoints.set(id, endpoint);
    this.accounts.set(accountId, fresh);
    this.forgetSchedule(old);
  }

  /** Account deletion: its endpoints, deliveries and watched jobs are gone. */
  deleteAccount(accountId: string): void {
    const old = this.accounts.get(accountId);
    if (!old) return;
    this.forgetDeliveries(old);
    for (const id of old.endpoints.keys()) this.endpointIndex.delete(id);
    this.accounts.delete(accountId);
    this.forgetSchedule(old);
  }

  /** Out of the due index; its drain (if one runs) sees it is stale and stops. */
  private forgetSchedule(state: AccountWebhooks): void {
    this.due.remove(state);
    this.working.delete(state);
    this.arm();
  }

  private forgetDeliveries(state: AccountWebhooks): void {
    this.log.forgetAccount(state.id);
  }

  /** For good: the timer cleared and attempts in flight aborted (reset, server close). Nothing waits for retries. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    // Slices waiting stop: the drains see the hub closed, and the clock calls waiting answer.
    this.slices.close();
    this.abort.abort();
    this.connections.close();
  }

  private stateOf(accountId: string): AccountWebhooks {
    let state = this.accounts.get(accountId);
    if (!state) this.accounts.set(accountId, (state = new AccountWebhooks(accountId)));
    return state;
  }

  // ---- the log ----

  delivery(id: string): WebhookDeliveryView | undefined {
    const delivery = this.log.get(id);
    return delivery && deliveryView(delivery);
  }

  /** Newest first, filtered, within a page's byte cap (src/webhooks/delivery-listing.ts); `hasMore` when more matched. */
  deliveries(filter: DeliveryFilter): { data: WebhookDeliveryView[]; hasMore: boolean } {
    // An endpoint's deliveries are its account's: only that account's log is read.
    const accountId = filter.account_id ?? this.endpointIndex.get(filter.endpoint_id ?? '')?.account_id;
    return listPage(
      this.log.newestFirst(accountId),
      (delivery) =>
        (filter.endpoint_id === undefined || delivery.endpoint.id === filter.endpoint_id) &&
        (filter.event_type === undefined || delivery.event.type === filter.event_type) &&
        (filter.status === undefined || delivery.status === filter.status),
      filter.limit,
    );
  }
}
