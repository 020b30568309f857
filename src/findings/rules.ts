/**
 * The rules of contract §5.1, derived as requests finish and deliveries end: no scan of the journal.
 * Each credential (an API key, or the caller's IP address for requests without a known key) has a
 * small state, made only when something may complete a finding later (a failure, a refused request,
 * a 429, a job being polled) and dropped once empty, so a client that breaks no rule costs one map
 * lookup per request and nothing kept. Every part of a state is bounded in count (BOUNDS).
 *
 * About 400 lines kept whole on purpose: the ten rules read and write one state per credential
 * (a run of retries is what three of them complete), so split by rule each part would reach into the
 * others' state; the parts that stand alone are apart (the signature of "the same request",
 * elapsed time, the bounded map, the rule switches).
 */
import { BoundedMap } from './bounded-map.js';
import type { RaisedFinding, RuleName } from './finding.js';
import { elapsedMs, type DeliveryObservation, type Instant, type RequestObservation } from './observation.js';
import { requestSignature } from './request-signature.js';

/** The figures of §5.1's table. */
export const THRESHOLDS = {
  /** A wait of `Retry-After` less this much still counts as honoured. */
  retryAfterToleranceMs: 100,
  /** Failures of the same request in a row before a quick fourth send is a loop without backoff. */
  failuresBeforeBackoffCheck: 3,
  /** …sent less than this after the first of those failures. */
  backoffWindowMs: 1000,
  /** Reads of an unfinished job in a row… */
  jobReads: 10,
  /** …each less than this after the one before. */
  jobReadGapMs: 1000,
} as const;

/** Statuses after which the same request must not be sent again as is (spec §7.2). */
export const NON_RETRYABLE = new Set([400, 401, 403, 404, 422]);

/** How much one credential's state may hold, and how many credentials have one. */
export const BOUNDS = {
  credentials: 10_000,
  /** Failing requests followed at once (distinct signatures) per credential. */
  runs: 16,
  /** Refused requests remembered per credential. */
  refused: 16,
  /** Jobs being polled per credential. */
  polls: 16,
  /** Request ids a finding lists at most (the first ones, and the one that completed it). */
  requestIds: 12,
} as const;

const UNFINISHED_JOB = new Set(['queued', 'processing']);
const NO_RULE_OFF: ReadonlySet<RuleName> = new Set();

interface Run {
  /** Answers of the failures so far, the last three kept (the window of the backoff check). */
  failures: number;
  lastFailures: Instant[];
  requestIds: string[];
  /** A send of the run whose write took effect though its answer was lost (`when: "after"`). */
  tookEffect: string | undefined;
  backoffReported: boolean;
  writeReported: boolean;
}

interface Poll {
  reads: number;
  last: Instant;
  requestIds: string[];
  reported: boolean;
}

class CredentialState {
  retryAfter: { ms: number; seconds: number; at: Instant; requestId: string } | undefined;
  readonly runs = new BoundedMap<string, Run>(BOUNDS.runs);
  readonly refused = new BoundedMap<string, { status: number; requestId: string }>(BOUNDS.refused);
  readonly polls = new BoundedMap<string, Poll>(BOUNDS.polls);
  /** The limiter window of the last `rate-limit-exhausted` finding. */
  exhaustedWindow: number | undefined;

  constructor(readonly accountId: string | null) {}

  /** Drops what only rules now off would read (docs/findings.md "Silencing a rule": an off rule costs nothing). */
  prune(off: ReadonlySet<RuleName>): void {
    if (off.has('retry-after-ignored')) this.retryAfter = undefined;
    if (off.has('retry-without-backoff') && off.has('write-retried-without-idempotency-key')) this.runs.clear();
    if (off.has('non-retryable-retried')) this.refused.clear();
    if (off.has('job-polled-too-often')) this.polls.clear();
    if (off.has('rate-limit-exhausted')) this.exhaustedWindow = undefined;
  }

  get empty(): boolean {
    return (
      this.retryAfter === undefined &&
      this.runs.size === 0 &&
      this.refused.size === 0 &&
      this.polls.size === 0 &&
      this.exhaustedWindow === undefined
    );
  }
}

function ids(list: string[], last: string): string[] {
  const all = [...list, last];
  return all.length <= BOUNDS.requestIds ? all : [...all.slice(0, BOUNDS.requestIds - 1), last];
}

function pushBounded(list: string[], id: string): void {
  if (list.length < BOUNDS.requestIds) list.push(id);
  else list[list.length - 1] = id;
}

const seconds = (ms: number) => `${(Math.max(0, ms) / 1000).toFixed(3).replace(/\.?0+$/, '')} s`;

/** The state's key: the key id (`key_…`), or `ip:` and the address for requests without a known key. */
export function credentialOf(apiKeyId: string | null, callerIp: string): string {
  return apiKeyId ?? `ip:${callerIp}`;
}

export class FindingRules {
  private readonly states = new BoundedMap<string, CredentialState>(BOUNDS.credentials, (credential, state) =>
    this.unindex(credential, state),
  );
  /** The credentials with a state, per account: a reset or a change of rules touches only its own. */
  private readonly byAccount = new Map<string, Set<string>>();
  /** Per account (or '' for requests without a known key): operations already reported as deprecated. */
  private readonly deprecated = new Map<string, Set<string>>();

  /**
   * The findings this finished request completes, in the table's order. A rule in `off` raises
   * nothing and nothing is remembered for it: no state is made that only it would read.
   */
  request(o: RequestObservation, off: ReadonlySet<RuleName> = NO_RULE_OFF): RaisedFinding[] {
    const raised: RaisedFinding[] = [];
    const credential = credentialOf(o.apiKeyId, o.callerIp);
    let state = this.states.get(credential);
    const base = { account_id: o.accountId, api_key_id: o.apiKeyId, operation_id: o.operationId, delivery_ids: [], at: o.answered.virtual };
    let signature: string | undefined;
    const sig = () => (signature ??= requestSignature(o));

    // What this request completes of what came before it.
    if (state) {
      const asked = state.retryAfter;
      // Only a send that left after the 429's answer; one already under way when it came is not a retry.
      if (asked && o.arrived.real >= asked.at.real) {
        state.retryAfter = undefined;
        const waited = elapsedMs(asked.at, o.arrived);
        if (waited < asked.ms - THRESHOLDS.retryAfterToleranceMs && !off.has('retry-after-ignored')) {
          raised.push({
            ...base,
            rule: 'retry-after-ignored',
            request_ids: [asked.requestId, o.requestId],
            message:
              `A 429 answered ${asked.requestId} with Retry-After: ${asked.seconds}; the same credential sent ${o.method} ${o.path} ` +
              `(${o.requestId}) ${seconds(waited)} later (elapsed: the larger of real and account time). ` +
              `Spec §8 asks a client to wait at least Retry-After seconds before its next request.`,
          });
        }
      }
      if (state.runs.size > 0) {
        const run = state.runs.get(sig());
        if (run) this.retried(o, run, base, raised, off);
      }
      if (state.refused.size > 0) {
        const refused = state.refused.get(sig());
        if (refused) {
          state.refused.delete(sig());
          if (!off.has('non-retryable-retried'))
            raised.push({
              ...base,
              rule: 'non-retryable-retried',
              request_ids: [refused.requestId, o.requestId],
              message:
                `${o.method} ${o.path} was answered ${refused.status} (${refused.requestId}) and the same request was sent again ` +
                `(${o.requestId}). Spec §7.2: a ${refused.status} will not change by retrying; fix the request instead.`,
            });
        }
      }
    }

    // What this request's answer starts or ends.
    const failed = (o.status !== null && o.status >= 500) || o.fault !== null || o.closedEarly || o.status === null;
    // A run is read only by the backoff rule, and by the write rule for a POST.
    const followRuns = !off.has('retry-without-backoff') || (o.method === 'POST' && !off.has('write-retried-without-idempotency-key'));
    if (failed && followRuns) {
      state ??= this.stateFor(credential, o.accountId);
      let run = state.runs.get(sig());
      if (!run) {
        run = { failures: 0, lastFailures: [], requestIds: [], tookEffect: undefined, backoffReported: false, writeReported: false };
      }
      run.failures += 1;
      run.lastFailures.push(o.answered);
      if (run.lastFailures.length > THRESHOLDS.failuresBeforeBackoffCheck) run.lastFailures.shift();
      pushBounded(run.requestIds, o.requestId);
      if (o.tookEffect) run.tookEffect ??= o.requestId;
      state.runs.set(sig(), run);
    } else if (!failed && state && state.runs.size > 0) {
      // A send that did not fail ends its run of retries.
      state.runs.delete(sig());
    }
    if (o.status !== null && !failed && NON_RETRYABLE.has(o.status) && !off.has('non-retryable-retried')) {
      state ??= this.stateFor(credential, o.accountId);
      state.refused.set(sig(), { status: o.status, requestId: o.requestId });
    }
    if (o.status === 429 && o.retryAfterSeconds !== undefined && !off.has('retry-after-ignored')) {
      state ??= this.stateFor(credential, o.accountId);
      state.retryAfter = { ms: o.retryAfterSeconds * 1000, seconds: o.retryAfterSeconds, at: o.answered, requestId: o.requestId };
    }
    if (o.status === 429 && o.rateLimited === 'quota' && o.rateLimitWindow !== undefined && !off.has('rate-limit-exhausted')) {
      state ??= this.stateFor(credential, o.accountId);
      if (state.exhaustedWindow !== o.rateLimitWindow) {
        state.exhaustedWindow = o.rateLimitWindow;
        raised.push({
          ...base,
          rule: 'rate-limit-exhausted',
          request_ids: [o.requestId],
          message:
            `${o.apiKeyId === null ? `The caller ${o.callerIp}` : `The key ${o.apiKeyId}`} used up its rate limit and got a 429 from its real quota ` +
            `(${o.requestId}). Spec §8, §2.11: read the RateLimit headers (remaining, reset) and slow down before the quota runs out.`,
        });
      }
    }
    if (o.status === 400 && o.errorCode === 'idempotency_key_reused' && !off.has('idempotency-key-reused')) {
      raised.push({
        ...base,
        rule: 'idempotency-key-reused',
        request_ids: [o.requestId],
        message:
          `The Idempotency-Key ${JSON.stringify(o.idempotencyKey ?? '')} was sent again with a different payload (${o.requestId}, answered 400). ` +
          `Spec §7.3: a key names one write; make a new key for a new payload.`,
      });
    }
    if (o.deprecation && o.operationId !== null && !off.has('deprecated-operation-called')) this.deprecatedCalled(o, base, raised);
    if (o.job && !off.has('job-polled-too-often')) {
      state ??= UNFINISHED_JOB.has(o.job.status) ? this.stateFor(credential, o.accountId) : undefined;
      if (state) this.jobRead(o, o.job, state, base, raised);
    }
    if (state?.empty) this.drop(credential, state);
    return raised;
  }

  /** The same request sent again after a failure (`run` holds the failures so far). */
  private retried(
    o: RequestObservation,
    run: Run,
    base: Omit<RaisedFinding, 'rule' | 'request_ids' | 'message'>,
    raised: RaisedFinding[],
    off: ReadonlySet<RuleName>,
  ) {
    const first = run.lastFailures[0];
    if (!run.backoffReported && run.failures >= THRESHOLDS.failuresBeforeBackoffCheck && first && !off.has('retry-without-backoff')) {
      const waited = elapsedMs(first, o.arrived);
      if (waited < THRESHOLDS.backoffWindowMs) {
        run.backoffReported = true;
        raised.push({
          ...base,
          rule: 'retry-without-backoff',
          request_ids: ids(run.requestIds, o.requestId),
          message:
            `${o.method} ${o.path} failed ${run.failures} times in a row and was sent again (${o.requestId}) ${seconds(waited)} after the first of ` +
            `the last three failures. Spec §8: back off between retries (exponential, with jitter), so a struggling service can recover.`,
        });
      }
    }
    if (!run.writeReported && o.method === 'POST' && o.idempotencyKey === undefined && !off.has('write-retried-without-idempotency-key')) {
      run.writeReported = true;
      const twice = run.tookEffect
        ? ` The first attempt (${run.tookEffect}) had taken effect before its answer was lost, so this retry made the change twice.`
        : '';
      raised.push({
        ...base,
        rule: 'write-retried-without-idempotency-key',
        request_ids: ids(run.requestIds, o.requestId),
        message:
          `POST ${o.path} failed (${run.requestIds.at(-1)}) and was sent again without an Idempotency-Key (${o.requestId}).${twice} ` +
          `Spec §7.3, §4: retry a write only with an Idempotency-Key, the same on every attempt, so it happens once.`,
      });
    }
  }

  private deprecatedCalled(o: RequestObservation, base: Omit<RaisedFinding, 'rule' | 'request_ids' | 'message'>, raised: RaisedFinding[]) {
    const account = o.accountId ?? '';
    let seen = this.deprecated.get(account);
    if (seen?.has(o.operationId!)) return;
    if (!seen) this.deprecated.set(account, (seen = new Set()));
    seen.add(o.operationId!);
    raised.push({
      ...base,
      rule: 'deprecated-operation-called',
      request_ids: [o.requestId],
      message:
        `${o.operationId} (${o.method} ${o.path}) is deprecated and answered with Deprecation headers (${o.requestId}); it stops answering at its ` +
        `Sunset, ${o.deprecation!.sunset}. Spec §9: move to its replacement (see the Link header) before then.`,
    });
  }

  private jobRead(
    o: RequestObservation,
    job: { id: string; status: string },
    state: CredentialState,
    base: Omit<RaisedFinding, 'rule' | 'request_ids' | 'message'>,
    raised: RaisedFinding[],
  ) {
    if (!UNFINISHED_JOB.has(job.status)) {
      state.polls.delete(job.id);
      return;
    }
    let poll = state.polls.get(job.id);
    if (poll && elapsedMs(poll.last, o.arrived) < THRESHOLDS.jobReadGapMs) {
      poll.reads += 1;
      pushBounded(poll.requestIds, o.requestId);
    } else {
      poll = { reads: 1, last: o.arrived, requestIds: [o.requestId], reported: poll?.reported ?? false };
    }
    poll.last = o.arrived;
    state.polls.set(job.id, poll);
    if (poll.reads >= THRESHOLDS.jobReads && !poll.reported) {
      poll.reported = true;
      raised.push({
        ...base,
        rule: 'job-polled-too-often',
        request_ids: [...poll.requestIds],
        message:
          `The job ${job.id}, still ${job.status}, was read ${poll.reads} times in a row, each less than 1 s after the one before. ` +
          `Spec §1, §6: subscribe to the job.completed and job.failed webhooks instead of polling, or poll with a growing interval.`,
      });
    }
  }

  /** The findings an ended delivery completes. */
  delivery(d: DeliveryObservation, off: ReadonlySet<RuleName> = NO_RULE_OFF): RaisedFinding[] {
    const base = { account_id: d.accountId, api_key_id: null, operation_id: null, request_ids: [], delivery_ids: [d.deliveryId], at: d.at };
    if (d.status === 'succeeded' && d.wrongSecret && !off.has('webhook-signature-not-verified')) {
      return [
        {
          ...base,
          rule: 'webhook-signature-not-verified',
          message:
            `The receiver of endpoint ${d.endpointId} answered ${d.lastStatusCode ?? '2xx'} to delivery ${d.deliveryId} (${d.eventType}), which was signed ` +
            `with a wrong secret. Spec §6: verify the webhook-signature header with the endpoint's secret and refuse a bad one.`,
        },
      ];
    }
    if (d.status === 'failed' && !off.has('webhook-delivery-failed')) {
      return [
        {
          ...base,
          rule: 'webhook-delivery-failed',
          message:
            `Delivery ${d.deliveryId} (${d.eventType}) to endpoint ${d.endpointId} failed after ${d.attempts} attempts` +
            `${d.lastStatusCode === null ? ' (no answer on the last)' : ` (the last answered ${d.lastStatusCode})`}. ` +
            `Contract §4.3: a receiver answers 2xx quickly and does its work after.`,
        },
      ];
    }
    return [];
  }

  private stateFor(credential: string, accountId: string | null): CredentialState {
    const state = new CredentialState(accountId);
    this.states.set(credential, state);
    if (accountId !== null) {
      let credentials = this.byAccount.get(accountId);
      if (!credentials) this.byAccount.set(accountId, (credentials = new Set()));
      credentials.add(credential);
    }
    return state;
  }

  private drop(credential: string, state: CredentialState): void {
    this.states.delete(credential);
    this.unindex(credential, state);
  }

  private unindex(credential: string, state: CredentialState): void {
    if (state.accountId === null) return;
    const credentials = this.byAccount.get(state.accountId);
    credentials?.delete(credential);
    if (credentials?.size === 0) this.byAccount.delete(state.accountId);
  }

  /** The account's credentials with a state, with their states (a copy: the caller may drop them). */
  private statesOf(accountId: string): Array<[string, CredentialState]> {
    return [...(this.byAccount.get(accountId) ?? [])].flatMap((credential) => {
      const state = this.states.get(credential);
      return state ? [[credential, state] as [string, CredentialState]] : [];
    });
  }

  /** An account's rules changed: what only the rules now off would read goes (the rest stays pending). */
  rulesChanged(accountId: string, off: ReadonlySet<RuleName>): void {
    for (const [credential, state] of this.statesOf(accountId)) {
      state.prune(off);
      if (state.empty) this.drop(credential, state);
    }
    if (off.has('deprecated-operation-called')) this.deprecated.delete(accountId);
  }

  /** Everything kept about an account (reset, delete): its keys' states and its deprecation memory. */
  forget(accountId: string): void {
    for (const [credential, state] of this.statesOf(accountId)) this.drop(credential, state);
    this.deprecated.delete(accountId);
  }

  /** Whether anything is pending for this credential: otherwise only an unusual answer can raise a finding. */
  watches(credential: string): boolean {
    return this.states.has(credential);
  }

  /** How many credentials have a state (tests of "a client that breaks no rule holds nothing"). */
  get credentials(): number {
    return this.states.size;
  }
}
