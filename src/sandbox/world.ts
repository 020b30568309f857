/**
 * One generation of the sandbox's mutable state: clock, ids, store and the protocol state of the
 * middlewares. `Sandbox` boots one at start-up and `/__admin/reset` replaces it whole, which is what
 * makes reset exact (msw's `reset()`: back to the initial set, nothing carried over).
 *
 * Every request captures the world current when it arrives (`ctx.state.world`, see
 * src/http/capture-world.ts) and reads only that one until it is answered. A request that was still
 * running when a reset came finishes in the discarded world: its writes go nowhere visible, and it
 * never touches the new world's ids, store or journal. So nothing needs to guard against a reset.
 */
import { isoTimestamp, VirtualClock, type RealTimeSource } from '../clock/virtual-clock.js';
import type { JobOutcomeRule } from '../jobs/outcome.js';
import type { JobSettings } from '../jobs/settings.js';
import { IdGenerator, Incarnations, Prng, RequestIdGenerator, type IdSource } from '../random.js';
import { RecordIdStreams } from './record-ids.js';
import { DeprecationRegistry, parseDeprecation } from '../protocol/deprecation.js';
import { IdempotencyStore } from '../protocol/idempotency-store.js';
import { RateLimiter } from '../protocol/rate-limiter.js';
import { RequestJournal } from '../protocol/request-journal.js';
import type { NewApiKey, OperationDef } from '../operations/types.js';
import type { ResolvedOptions } from '../config/options.js';
import { ApiError } from '../errors/api-error.js';
import { ConfigError } from '../errors/config-error.js';
import type { ScenarioCatalog } from '../scenarios/catalog.js';
import { ScenarioActivationError, ScenarioEngine, type ActivationInput } from '../scenarios/engine.js';
import { parseBootScenario } from '../scenarios/boot-spec.js';
import { seedRecordsOf, type AccountSeeder } from '../fixture/account-template.js';
import { FixtureError, type AccountTemplate, type LoadedFixture } from '../fixture/fixture-file.js';
import type { PinnedRecords } from '../store/pinned-records.js';
import type { AccountRecord, ApiKeyRecord, Plan } from '../store/records.js';
import { pinnedPastBudget, recordBytes, SeededRecordsOverBudget } from '../store/record-meter.js';
import { AccountStore, Store, type SeedRecords } from '../store/store.js';
import type { ClockBirth } from './account-clock.js';
import { clockFromBirth, ownTimeDomain, takeBirth, Tenant, withKeys } from './tenant.js';
import { timeDomain, type TimeDomain } from './time-domain.js';
import { WebhookHub } from '../webhooks/hub.js';
import type { EndedDelivery, RequestExchange, WorldModule, WorldModuleInstance } from './world-module.js';
import { keyRecord } from '../resources/api-keys/key-record.js';
import { draftId } from '../resources/draft-id.js';
import { webhookEvent } from '../resources/index.js';
import { endedJobEvent } from '../resources/jobs/webhook-events.js';

export type { NewApiKey } from '../operations/types.js';

/** What every generation is built from: fixed for the sandbox's life, loaded once. */
export interface WorldBlueprint {
  readonly options: ResolvedOptions;
  readonly fixture: LoadedFixture;
  /** Durations and costs per job type: the fixture's `jobs` section over the defaults. */
  readonly jobSettings: JobSettings;
  /** Every scenario file, loaded once (scenarios/ and the `scenariosDir` option). */
  readonly scenarioCatalog: ScenarioCatalog;
  /** The operations served; scenarios are checked against them. */
  readonly operations: readonly OperationDef[];
  /** What fills a new account's collections, in order (the resources', src/resources/index.ts). */
  readonly seeders: readonly AccountSeeder[];
  readonly realTime: RealTimeSource;
  /** The virtual instant of the first boot; `frozen` clocks return to it on reset. */
  readonly bootInstant: number;
  /** The world modules, in order (src/sandbox/modules.ts): each world makes its instances. */
  readonly modules: readonly WorldModule<World>[];
}

export class World {
  readonly options: ResolvedOptions;
  readonly fixture: LoadedFixture;
  readonly jobSettings: JobSettings;
  private readonly seeders: readonly AccountSeeder[];
  readonly clock: VirtualClock;
  /** The sandbox's stream: ids of accounts made without one, and what a request of a discarded account store draws. */
  readonly ids: IdGenerator;
  /** Per account and kind: the ids and tokens of what its requests make (src/sandbox/record-ids.ts). */
  readonly recordIds: RecordIdStreams;
  readonly requestIds = new RequestIdGenerator();
  readonly store: Store;
  readonly rateLimiter: RateLimiter;
  /** First responses of writes sent with an Idempotency-Key, per account (spec §8). */
  readonly idempotency: IdempotencyStore;
  /** The last `journalSize` /v1 requests (contract §3.4). */
  readonly journal: RequestJournal;
  /** Active scenarios (contract §3.5); boot re-activates the `scenarios` option's. */
  readonly scenarios: ScenarioEngine;
  /**
   * Rules asked when a job is created, deciding how it ends (src/jobs/outcome.ts), after the
   * creating request's scenarios (its job factory, bound in src/http/router.ts). None at boot, so
   * every job completes unless a scenario says otherwise; tests may add rules, and reset removes them.
   */
  readonly jobOutcomeRules: JobOutcomeRule[];
  /** Deprecated operations (spec §9): the fixture's, then the `deprecations` option's (which win). */
  readonly deprecations: DeprecationRegistry;
  /** Per account: its own clock (if any) and its birth, for account reset (contract §4.1, src/sandbox/tenant.ts). */
  readonly tenants = new Map<string, Tenant>();
  /** The sandbox clock's domain: anonymous callers and every account that shares the clock. */
  readonly sharedTime: TimeDomain;
  readonly realTime: RealTimeSource;
  /** Webhook endpoints, events and deliveries (contract §4.3); closed when the world is replaced. */
  readonly webhooks: WebhookHub;
  /** This world's module instances, in list order: account lifecycle and close loop over them. */
  readonly modules: readonly WorldModuleInstance[];
  private readonly instances = new Map<WorldModule<World>, WorldModuleInstance>();
  /**
   * The modules fed by /v1 requests (src/http/request-finished.ts); empty unless one implements
   * `requestFinished`, and then no exchange is built at all.
   */
  readonly requestListeners: readonly ((exchange: RequestExchange) => void)[];
  /** Told of each ended delivery; `delivery` stays undefined unless a module implements `deliveryEnded` (the hub then builds nothing). */
  private readonly listening: { delivery?: (delivery: EndedDelivery) => void } = {};

  /** Boots a generation: the fixture's accounts and keys, then the `scenarios` option's activations. */
  constructor(blueprint: WorldBlueprint) {
    const { options, fixture, realTime, bootInstant } = blueprint;
    this.options = options;
    this.fixture = fixture;
    this.jobSettings = blueprint.jobSettings;
    this.seeders = blueprint.seeders;
    // A running clock restarts from real now, as a fresh boot would; a frozen one at its boot instant.
    const start = options.clock.mode === 'running' && options.clock.start === undefined ? realTime() : bootInstant;
    this.clock = new VirtualClock(start, options.clock.mode, realTime);
    // A draw equal to an account id a client chose (`POST /__admin/accounts {"id"}`) is skipped, so a
    // drawn account never lands on a live one; see `createAccount` for why this stays deterministic.
    this.ids = new IdGenerator(options.seed, (value) => this.accountIdTaken(value));
    this.store = new Store({ recordBudget: options.recordBudget });
    // One memory of deleted ids' lives for the record and webhook streams: an id costs its bytes once.
    const lives = new Incarnations(options.deletedIdsBudget);
    this.recordIds = new RecordIdStreams(
      options.seed,
      (value) => this.store.tokenOf(value) !== undefined || this.store.hasToken(value),
      lives,
    );
    this.rateLimiter = new RateLimiter(options.rateLimit);
    this.realTime = realTime;
    this.idempotency = new IdempotencyStore({
      budget: options.idempotencyBudget,
      totalBudget: options.idempotencyTotalBudget,
      // Each account's keys expire on its own clock (contract §4.1), idle ones included.
      nowOf: (accountId) => this.timeOf(accountId).clock.now(),
    });
    this.journal = new RequestJournal(options.journalSize, { bodyLimit: options.journalBodyLimit, budget: options.journalBudget });
    const scenarios = new ScenarioEngine({
      catalog: blueprint.scenarioCatalog,
      operations: blueprint.operations,
      store: this.store,
      clock: this.clock,
      // One stream per activation and requesting account (ScenarioEngine.chance), each from the seed and its name.
      chanceStream: (name) => new Prng(`scenario-chance:${options.seed}:${name}`),
    });
    this.scenarios = scenarios;
    this.jobOutcomeRules = [];
    // Services bound to the sandbox clock, like an own clock's: a request keeps the clock it captured.
    this.sharedTime = timeDomain(this, this.clock, this.rateLimiter);
    const listening = this.listening;
    this.webhooks = new WebhookHub({
      // Read by the hub as each delivery ends: set below, once the modules are made.
      get deliveryEnded() {
        return listening.delivery;
      },
      seed: options.seed,
      lives,
      realTime,
      clockOf: (accountId) => this.timeOf(accountId).clock,
      account: (accountId) => this.store.forAccount(accountId),
      settleJob: (account, job) => this.timeOf(account.id).services.settleJob(account, job),
      twists: (accountId, twist) => scenarios.webhookTwists(accountId, twist),
      sample: (type, context) => webhookEvent(type).sample(context),
      jobEvent: (job) => endedJobEvent(job, options.seed),
      attemptTimeoutMs: options.webhookTimeoutMs,
      concurrency: options.webhookConcurrency,
      inflightBudget: options.webhookInflightBudget,
      deliveryLogBudget: options.deliveryLogBudget,
      deliveryLogSandboxBudget: options.deliveryLogSandboxBudget,
      responseLimit: options.webhookResponseLimit,
    });
    // Both sources were checked at load (fixture file, options), so parsing cannot fail here.
    this.deprecations = new DeprecationRegistry(
      [...(fixture.deprecations ?? []).map(parseDeprecation), ...options.deprecations],
      (operationId) => scenarios.deprecatesEveryRequest(operationId),
    );
    // After the world's own parts, which modules may read, and before the first account.
    this.modules = blueprint.modules.map((module) => {
      const instance = module.create(this);
      this.instances.set(module, instance);
      return instance;
    });
    this.requestListeners = this.modules.flatMap((m) => (m.requestFinished ? [m.requestFinished.bind(m)] : []));
    const deliveryListeners = this.modules.flatMap((m) => (m.deliveryEnded ? [m.deliveryEnded.bind(m)] : []));
    if (deliveryListeners.length > 0) this.listening.delivery = (delivery) => deliveryListeners.forEach((listen) => listen(delivery));
    for (const [index, account] of fixture.accounts.entries()) {
      const scoped = fixtureAccount(fixture.file, index, () =>
        this.createAccount({
          id: account.id,
          name: account.name,
          plan: account.plan,
          credits: account.credits,
          populate: account.populate ?? true,
          pinned: account.pinned,
          // Weighed lazily like every account's: deriving them all at boot cost createApp() ~4 ms
          // a fixture account. What the fixture itself holds is weighed now, so a fixture whose
          // pinned records alone pass the budget still stops the boot.
          checkPinnedBytes: true,
        }),
      );
      for (const key of account.api_keys) {
        this.addApiKey(scoped, key.token, {
          id: key.id,
          name: key.name ?? 'Default',
          access: key.access,
          expiresAt: key.expires_at ?? null,
        });
      }
      this.sealBirth(scoped);
    }
    // After the fixture's accounts and keys, which boot scenarios may be scoped to.
    for (const spec of options.scenarios) this.activateBootScenario(spec);
  }

  /** A `scenarios` option entry; refused (at the first boot) with a ConfigError naming the setting. */
  private activateBootScenario(spec: string): void {
    let input: ActivationInput;
    try {
      input = parseBootScenario(spec);
      this.scenarios.activate(input, 'text');
    } catch (error) {
      if (error instanceof ScenarioActivationError) {
        throw new ConfigError('scenario', `${JSON.stringify(spec)}: ${error.message}`);
      }
      throw error;
    }
  }

  /**
   * This generation is over (reset, server close): each module closes (the webhooks stop, retries
   * included, and attempts in flight are aborted).
   */
  close(): void {
    for (const module of this.modules) module.close?.();
  }

  /** The instance of one of this world's modules; undefined for a module not in its list. */
  module<Instance extends WorldModuleInstance>(module: WorldModule<World, Instance>): Instance | undefined {
    return this.instances.get(module) as Instance | undefined;
  }

  /**
   * The instance of the module listed under `name`: for a reader that must not import the module
   * (the report reads findings through an interface of its own, src/report/findings-source.ts).
   */
  moduleNamed(name: string): WorldModuleInstance | undefined {
    for (const [module, instance] of this.instances) if (module.name === name) return instance;
    return undefined;
  }

  /**
   * Where the ids of what the account's requests make come from: its own streams while `account` is
   * its live store. A request whose account was reset or deleted meanwhile writes into the discarded
   * store (contract §4.1), and draws from the sandbox's stream, so it never moves the streams of the
   * account as it is now, nor makes streams for one that is gone.
   */
  idsOf(account: AccountStore): IdSource {
    return this.store.holds(account) ? this.recordIds.of(account.id) : this.ids;
  }

  /** The time domain of an account: its own clock's, or the sandbox clock's (also for unknown ids). */
  timeOf(accountId: string): TimeDomain {
    return this.tenants.get(accountId)?.own ?? this.sharedTime;
  }

  /**
   * Adds the account's first keys to what its reset restores (`createAccount` took the rest): call
   * once they exist. Keys made after it are not part of the account's birth.
   */
  sealBirth(account: AccountStore): void {
    const tenant = this.tenants.get(account.id);
    if (tenant?.birth) tenant.birth = withKeys(tenant.birth, account, (keyId) => this.store.tokenOf(keyId));
  }

  createAccount(input: {
    id?: string;
    name?: string;
    plan: Plan;
    credits?: number | undefined;
    populate?: boolean;
    template?: AccountTemplate;
    pinned?: PinnedRecords | undefined;
    /** The account's clock (contract §4.1); shared when left out. */
    clock?: ClockBirth | undefined;
    /**
     * Derive its seeded records once now and refuse the account (SeededRecordsOverBudget) when they
     * weigh more than the record budget: for records the creator chose (pinned, a template, a fixture's accounts).
     */
    checkSeededBytes?: boolean;
    /** Refuse the account (SeededRecordsOverBudget) when its pinned records alone, as given, weigh more than the record budget. */
    checkPinnedBytes?: boolean;
    /**
     * The key the caller makes right after (`createFirstApiKey`): weighed now, with the seeded records
     * when they are weighed, so that an account whose first key does not fit is refused
     * (SeededRecordsOverBudget) before its id is drawn or anything is made, never left keyless.
     */
    firstKey?: NewApiKey;
  }): AccountStore {
    const template = input.template ?? this.fixture.template;
    const keyBytes = input.firstKey ? recordBytes(keyRecord(draftId('key'), draftId('cc_test'), input.firstKey, this.clock)) : 0;
    if (keyBytes > this.store.recordBudget) {
      throw new SeededRecordsOverBudget(keyBytes, this.store.recordBudget, undefined, 'its first API key');
    }
    if (input.checkPinnedBytes) {
      const past = pinnedPastBudget(input.pinned, this.store.recordBudget);
      if (past !== undefined) throw new SeededRecordsOverBudget(recordBytes(input.pinned), this.store.recordBudget, past);
    }
    // Refused before anything is touched: the account that has the id keeps its tenant (clock, birth).
    if (input.id !== undefined && this.accountIdTaken(input.id)) {
      throw new ApiError('resource_exists', { param: 'id', message: `an account ${input.id} exists in this sandbox` });
    }
    // Drawn tentatively: an account refused below (its seeded records over the budget) gives its id back.
    // A draw equal to a live account's id is skipped (the stream's `taken`): the sandbox's stream
    // already depends on every account made before (docs/parallel-tenants.md), and the skip depends
    // only on which ids are live, so the same requests still draw the same ids; a skip only ever
    // replaces what used to be a 500 (the id taken twice), never a draw that succeeded.
    const drawn = input.id === undefined ? this.ids.tentative('acct') : { id: input.id, undo: () => {} };
    const id = drawn.id;
    const tenant = new Tenant(input.clock ?? { mode: undefined, start: this.clock.now() });
    const ownClock = clockFromBirth(tenant.clockBirth, this.realTime);
    if (ownClock) tenant.own = ownTimeDomain(this, ownClock, this.options.rateLimit);
    this.tenants.set(id, tenant);
    // Created and seeded on the account's own clock: its records' timestamps lie before its now.
    const clock = this.timeOf(id).clock;
    const account: AccountRecord = {
      id,
      object: 'account',
      name: input.name ?? 'Sandbox creator',
      plan: input.plan,
      created_at: isoTimestamp(clock.now()),
      credits: { balance: input.credits ?? template.credits[input.plan], used: 0 },
    };
    // Seeded lazily: the records are derived the first time they are needed (src/store/store.ts).
    const seedRecords =
      input.populate === false
        ? undefined
        : seedRecordsOf({ seeders: this.seeders, template, now: clock.now(), seed: this.options.seed, pinned: input.pinned });
    let seededBytes: number | undefined;
    try {
      seededBytes =
        input.checkSeededBytes && seedRecords ? this.checkSeededBytes(account, seedRecords, input.pinned, id, keyBytes) : undefined;
    } catch (error) {
      drawn.undo();
      throw error;
    }
    const scoped = this.store.addAccount(account, seedRecords, seededBytes);
    tenant.birth = takeBirth(scoped, seedRecords);
    for (const module of this.modules) module.accountCreated?.(id);
    return scoped;
  }

  /** Whether an account (or a tenant being made) has this id in the world. */
  private accountIdTaken(id: string): boolean {
    return this.tenants.has(id) || this.store.forAccount(id) !== undefined;
  }

  /**
   * What the account's seeded records weigh; refuses an account born over its record budget with
   * `keyBytes` of first key on top (the tenant made for it is let go).
   */
  private checkSeededBytes(
    account: AccountRecord,
    seedRecords: SeedRecords,
    pinned: PinnedRecords | undefined,
    id: string,
    keyBytes: number,
  ): number {
    const budget = this.store.recordBudget;
    const bytes = new AccountStore(account, seedRecords).seededBytes();
    if (bytes + keyBytes <= budget) return bytes;
    this.tenants.delete(id);
    const what = keyBytes > 0 ? 'its seeded records and its first API key' : undefined;
    throw new SeededRecordsOverBudget(bytes + keyBytes, budget, pinnedPastBudget(pinned, budget), what);
  }

  /**
   * Creates a key with a fresh secret; the secret is returned once and kept only in the token index.
   * `clock` stamps it: a request passes the clock it captured (src/sandbox/time-domain.ts), so a key
   * made while its account is reset, deleted or given its own clock is stamped on the request's.
   */
  createApiKey(
    account: AccountStore,
    input: NewApiKey = {},
    clock: VirtualClock = this.timeOf(account.id).clock,
  ): { key: ApiKeyRecord; token: string } {
    // Before the secret and the id are drawn: a key the record budget refuses leaves the streams as they were.
    account.admit('name', [keyRecord(draftId('key'), draftId('cc_test'), input, clock)]);
    const token = this.idsOf(account).secret('cc_test_');
    const key = this.addApiKey(account, token, input, clock);
    return { key, token };
  }

  /** The key `createAccount` weighed as its `firstKey`: made without asking the budget again. */
  createFirstApiKey(account: AccountStore, input: NewApiKey): { key: ApiKeyRecord; token: string } {
    const token = this.idsOf(account).secret('cc_test_');
    return { key: this.addApiKey(account, token, input), token };
  }

  private addApiKey(
    account: AccountStore,
    token: string,
    input: NewApiKey & { id?: string },
    clock: VirtualClock = this.timeOf(account.id).clock,
  ): ApiKeyRecord {
    const key = keyRecord(input.id ?? this.idsOf(account).next('key'), token, input, clock);
    // Into the store the caller holds, which a reset or delete may have discarded (Store.addApiKey).
    return this.store.addApiKey(account, key, token);
  }
}

/** A fixture account over the record budget stops the boot, naming the file and the member (exit 2). */
function fixtureAccount(file: string, index: number, create: () => AccountStore): AccountStore {
  try {
    return create();
  } catch (error) {
    if (!(error instanceof SeededRecordsOverBudget)) throw error;
    throw new FixtureError(file, `/accounts/${index}${error.pointer === undefined ? '' : `/pinned${error.pointer}`}`, error.message);
  }
}
