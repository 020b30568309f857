/** Contract §3.2 and §4.1: accounts (tenants for tests) and their API keys. */
import { isInClockRange, isoTimestamp, MAX_INSTANT, MIN_INSTANT } from '../clock/virtual-clock.js';
import { ApiError, validationFailed } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import { apiKeyView } from '../resources/api-keys/schemas.js';
import { clockBirth, type ClockBirth } from '../sandbox/account-clock.js';
import { accountView } from '../sandbox/lifecycle.js';
import { recordRefusal, SeededRecordsOverBudget } from '../store/record-meter.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { AccountStore } from '../store/store.js';
import type { AdminAccount, AdminApiKey, CreateAccountInput } from './api-types.js';
import { accountOr404, accountState, derivedAccountOr404 } from './account-state.js';
import { accountSource, ACCOUNT_SOURCE_PROPERTIES } from './account-source.js';
import {
  accountAnswerSchema,
  accountStateSchema,
  adminAccountSchema,
  adminApiKeySchema,
  createdAccountSchema,
  listSchema,
} from './answer-schemas.js';
import { findingsSettingsSchema, ruleChanges, setAccountRules } from './findings-operations.js';
import { adminOperation } from './route-kit.js';
import { accountSnapshotSchema, createFromSnapshot } from './snapshot-operations.js';
import { listAccounts, ACCOUNT_LIST_QUERY } from './account-list.js';

type CreatedAccount = { account: AdminAccount; api_key: AdminApiKey & { token: string } };

const createAccountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // The account's own id (a fixture account's shape): a tenant whose bytes must not depend on the
    // order other tenants are made in passes one (docs/parallel-tenants.md "Ids").
    id: { type: 'string', pattern: '^acct_[A-Za-z0-9_]{1,64}$' },
    plan: { enum: ['free', 'paid'] },
    // `fixture`, `template`, `pinned`: where the records come from (src/admin/account-source.ts).
    ...ACCOUNT_SOURCE_PROPERTIES,
    name: { type: 'string', minLength: 1 },
    // `shared`, `frozen`, `running` or an instant (contract §4.1); the instant is checked by `accountClockBirth`.
    clock: { type: 'string', minLength: 1 },
    // An account snapshot to load (contract §5.3). Any object here: src/snapshot/decode.ts checks it
    // member by member, so a damaged one is 422 naming the member (`snapshot.records.forms.2.id`).
    snapshot: {
      type: 'object',
      additionalProperties: true,
      description: 'An AccountSnapshot from `GET /accounts/{id}/snapshot`, to recreate that account (alone, or with `clock`).',
    },
    // Which findings rules judge the account (docs/findings.md "Silencing a rule"); a snapshot does not carry them.
    findings: findingsSettingsSchema,
  },
};
/** The same body as the document describes it: `snapshot` is the snapshot document, which the loader checks member by member. */
const createAccountDocumented: JsonSchema = {
  ...createAccountSchema,
  properties: {
    ...(createAccountSchema.properties as Record<string, JsonSchema>),
    snapshot: accountSnapshotSchema,
  },
};
const patchAccountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: { plan: { enum: ['free', 'paid'] } },
};
const createKeySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id'],
  properties: {
    account_id: { type: 'string', minLength: 1 },
    name: { type: ['string', 'null'], maxLength: 255 },
    access: { enum: ['full', 'read_only'] },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

/** The `clock` of `POST /__admin/accounts`, refused (422, naming it) when it is none of the forms or out of range. */
function accountClockBirth(ctx: SandboxContext, setting: string | undefined): ClockBirth {
  const birth = clockBirth(setting, ctx.sandbox.world.clock.now());
  if (birth === undefined) throw validationFailed({ clock: [MESSAGES.accountClockSetting] });
  if (!isInClockRange(birth.start)) throw validationFailed({ clock: [MESSAGES.clockOutOfRange(MIN_INSTANT, MAX_INSTANT)] });
  return birth;
}

/**
 * The key as the API shows it (`apiKeyView`, built from the fields of the ApiKey schema, which types
 * them loosely), with its secret when given; test/admin/openapi.test.ts checks answers against the schema.
 */
function keyView(key: ApiKeyRecord, token: string): AdminApiKey & { token: string };
function keyView(key: ApiKeyRecord): AdminApiKey;
function keyView(key: ApiKeyRecord, token: string | null = null): AdminApiKey {
  return apiKeyView(key, token) as unknown as AdminApiKey;
}

/** Expires or revokes a key now, on its account's clock: an expired key stays expired on the clock that judges it. */
function keyAction(ctx: SandboxContext, id: string, action: 'expire' | 'revoke'): AdminApiKey {
  const found = ctx.sandbox.world.store.findKeyById(id);
  if (!found) throw new ApiError('resource_missing', { param: 'id', message: `No such API key: '${id}'.` });
  const now = isoTimestamp(ctx.sandbox.world.timeOf(found.account.id).clock.now());
  // Through `update`, so the record budget counts the timestamps it gains.
  found.account.write('api_keys').update(found.key.id, (key) => {
    if (action === 'expire') key.expires_at = now;
    else key.revoked_at = now;
  });
  return { ...keyView(found.key), access: found.key.access, revoked_at: found.key.revoked_at };
}

/**
 * 422 `record_budget_exceeded` for an account whose seeded records would pass the record budget,
 * naming the pinned record at which they do (`pinned.inboxes.3`), else the member that chose the template.
 */
function seededWithinBudget(body: { pinned?: unknown; template?: unknown }, create: () => AccountStore): AccountStore {
  try {
    return create();
  } catch (error) {
    if (!(error instanceof SeededRecordsOverBudget)) throw error;
    const param =
      error.pointer !== undefined
        ? `pinned${error.pointer.replaceAll('/', '.')}`
        : body.template !== undefined
          ? 'template'
          : body.pinned !== undefined
            ? 'pinned'
            : 'fixture';
    throw recordRefusal('record_budget_exceeded', param, error.message, `The account cannot be made: ${error.message}.`);
  }
}

/** The key an account is made with, weighed with the account (World.createAccount `firstKey`). */
const FIRST_KEY = { name: 'Default' } as const;

/** `POST /__admin/accounts` less its `findings` settings: from a snapshot, or from a template. */
function createAccount(ctx: SandboxContext, body: Omit<CreateAccountInput, 'findings'>): CreatedAccount {
  if (body.snapshot !== undefined) return createFromSnapshot(ctx, { ...body, snapshot: body.snapshot });
  const clock = accountClockBirth(ctx, body.clock);
  const { fixture, world } = ctx.sandbox;
  const { template, pinned } = accountSource(body, fixture);
  if (body.id !== undefined && world.store.forAccount(body.id)) {
    throw new ApiError('resource_exists', { param: 'id', message: `an account ${body.id} exists in this sandbox` });
  }
  const account = seededWithinBudget(body, () =>
    world.createAccount({
      ...(body.id === undefined ? {} : { id: body.id }),
      plan: body.plan ?? 'free',
      ...(body.name ? { name: body.name } : {}),
      template,
      pinned,
      clock,
      firstKey: FIRST_KEY,
      // The creator's own records are weighed now; the sandbox template's were the user's choice at boot.
      checkSeededBytes: body.pinned !== undefined || body.template !== undefined || body.fixture !== undefined,
    }),
  );
  const { key, token } = world.createFirstApiKey(account, FIRST_KEY);
  // What `POST /__admin/accounts/{id}/reset` restores: the account with this key and its token.
  world.sealBirth(account);
  return { account: accountView(world, account), api_key: keyView(key, token) };
}

const keyAnswer = { status: 200, description: 'The key, with its `access` and `revoked_at`.', schema: adminApiKeySchema } as const;

export const ACCOUNT_OPERATIONS = [
  adminOperation({
    route: 'GET /accounts',
    summary: 'List the accounts',
    description: "In creation order (fixture accounts first); a reset keeps an account's place. An unknown `starting_after` is 400.",
    client: ['admin.accounts.list({ limit, starting_after })'],
    query: ACCOUNT_LIST_QUERY,
    answer: { status: 200, description: 'A page of accounts.', schema: listSchema(adminAccountSchema, 'AdminAccountList') },
    errors: [],
    handler: (ctx, request) => {
      const page = listAccounts(ctx, request.query);
      return {
        object: 'list',
        data: page.ids.map((id) => accountView(ctx.sandbox.world, accountOr404(ctx, id))),
        has_more: page.hasMore,
      };
    },
  }),
  adminOperation({
    route: 'POST /accounts',
    summary: 'Create an account and its first key',
    description:
      "With `id` (`acct_` and up to 64 letters, digits or `_`) the account takes that id (409 `resource_exists` if one has it); without it, an id drawn from the sandbox's stream, which depends on the accounts made before. Records from the fixture's template, another fixture's (a name under `fixtures/`, or a path inside the working directory), or an inline `template` and `pinned` (docs/fixtures.md). An unusable `clock`, `fixture` (a path outside the working directory included), `template` or `pinned` is 422 naming it (dotted path: `pinned.experiences.0.name`), and so is one that would seed about 1,000 records more than the sandbox template. With `snapshot` (contract §5.3) the account is recreated as it was (ids, tokens, records, jobs, credits, endpoints; its clock frozen at the snapshot's instant unless `clock` says otherwise): a member the snapshot decides is 422, a damaged snapshot 422 naming the member, an id already in use 409 `resource_exists`.",
    client: [
      'admin.accounts.create({ pinned })',
      'admin.accounts.create({ snapshot })',
      "admin.accounts.create({ findings: { rules: { 'retry-after-ignored': 'off' } } })",
    ],
    body: createAccountSchema,
    documentedBody: createAccountDocumented,
    answer: { status: 201, description: "The account and its key, with the key's `token`.", schema: createdAccountSchema },
    errors: [409, 422],
    handler: (ctx, request) => {
      const { findings, ...body } = request.body();
      // Checked before anything is made: an unknown rule leaves no account behind.
      const rules = ruleChanges(findings?.rules, 'findings.rules');
      const created = createAccount(ctx, body);
      setAccountRules(ctx, created.account.id, rules);
      return created;
    },
  }),
  adminOperation({
    route: 'GET /accounts/{id}',
    summary: 'An account and every collection of it',
    description: "Every collection by plural snake_case name, plus `credits`; jobs summarized (a crawl's pages: `GET /v1/jobs/{id}`).",
    client: ['admin.accounts.get(id)', 'tenant.state()'],
    answer: { status: 200, description: '`{"account", "state"}`', schema: accountStateSchema },
    errors: [404],
    handler: async (ctx, request) => {
      const world = ctx.sandbox.world;
      return accountState(world, await derivedAccountOr404(ctx, request.params.id));
    },
  }),
  adminOperation({
    route: 'PATCH /accounts/{id}',
    summary: "Change an account's plan",
    description: 'The rate-limit tier follows at once.',
    client: ['admin.accounts.update(id, …)'],
    body: patchAccountSchema,
    answer: { status: 200, description: '`{"account"}`', schema: accountAnswerSchema },
    errors: [404, 422],
    handler: (ctx, request) => {
      const account = accountOr404(ctx, request.params.id);
      account.account.plan = request.body().plan;
      return { account: accountView(ctx.sandbox.world, account) };
    },
  }),
  adminOperation({
    route: 'POST /api_keys',
    summary: 'Create an API key for an account',
    description: 'A `read_only` key gets 403 `forbidden` on every write.',
    client: ['admin.apiKeys.create()'],
    body: createKeySchema,
    answer: { status: 201, description: 'The key with its `token` and `access`.', schema: adminApiKeySchema },
    errors: [404, 422],
    handler: (ctx, request) => {
      const body = request.body();
      const account = ctx.sandbox.world.store.forAccount(body.account_id);
      if (!account) throw new ApiError('resource_missing', { param: 'account_id', message: MESSAGES.noSuchAccount(body.account_id) });
      const { key, token } = ctx.sandbox.world.createApiKey(account, { name: body.name, access: body.access, expiresAt: body.expires_at });
      return { ...keyView(key, token), access: key.access };
    },
  }),
  adminOperation({
    route: 'POST /api_keys/{id}/expire',
    summary: 'Expire a key now',
    description: 'The key now answers 401 `authentication_required`.',
    client: ['admin.apiKeys.expire(id)'],
    answer: keyAnswer,
    errors: [404],
    handler: (ctx, request) => keyAction(ctx, request.params.id, 'expire'),
  }),
  adminOperation({
    route: 'POST /api_keys/{id}/revoke',
    summary: 'Revoke a key now',
    description: 'The key now answers 401 `authentication_required`.',
    client: ['admin.apiKeys.revoke(id)'],
    answer: keyAnswer,
    errors: [404],
    handler: (ctx, request) => keyAction(ctx, request.params.id, 'revoke'),
  }),
];
