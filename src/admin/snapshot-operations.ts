/**
 * Contract §5.3: `GET /__admin/accounts/{id}/snapshot`, and `POST /__admin/accounts {"snapshot"}`
 * (declared by the account creation route, which hands a body with a snapshot to `createFromSnapshot`).
 *
 * Bounded: a snapshot is at most the admin body limit less room for the members around it
 * (`SNAPSHOT_BYTES`), so every snapshot the sandbox gives can be sent back; an account larger than
 * that is refused (422 naming `id`) before its whole text is built.
 */
import { isInClockRange, MAX_INSTANT, MIN_INSTANT, parseInstant } from '../clock/virtual-clock.js';
import { ApiError, validationFailed } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext } from '../http/context.js';
import type { JsonSchema } from '../operations/types.js';
import { BODY_LIMIT_BYTES } from '../protocol/body-limit.js';
import { apiKeyView } from '../resources/api-keys/schemas.js';
import type { ClockBirth } from '../sandbox/account-clock.js';
import { accountView } from '../sandbox/lifecycle.js';
import { OverBudget } from '../snapshot/bounded-json.js';
import { decodeSnapshot, SnapshotProblem } from '../snapshot/decode.js';
import { ACCOUNT_SNAPSHOT_SCHEMA } from '../snapshot/document-schema.js';
import { loadSnapshot, SnapshotConflict, SnapshotOverBudget } from '../snapshot/load.js';
import type { AccountSnapshot } from '../snapshot/shape.js';
import { snapshotText, takeSnapshot } from '../snapshot/take.js';
import { recordRefusal } from '../store/record-meter.js';
import { derivedAccountOr404 } from './account-state.js';
import type { AdminApiKey, AdminAccount } from './api-types.js';
import { adminOperation, JsonText } from './route-kit.js';

/** Room left in the body limit for `{"snapshot": …, "clock": …}` around the snapshot itself. */
const WRAPPER_BYTES = 1024;
/** The largest snapshot the sandbox gives: one that fits, wrapped, in a `POST /__admin/accounts` body. */
export const SNAPSHOT_BYTES = BODY_LIMIT_BYTES - WRAPPER_BYTES;

/** Members of `POST /__admin/accounts` that a snapshot already decides. */
const DECIDED_BY_SNAPSHOT = ['id', 'plan', 'name', 'fixture', 'template', 'pinned'] as const;

/**
 * The snapshot's shape for the OpenAPI document: the very schema the loader holds snapshots to
 * (src/snapshot/document-schema.ts), each record by its record schema.
 */
export const accountSnapshotSchema: JsonSchema = ACCOUNT_SNAPSHOT_SCHEMA;

export const SNAPSHOT_OPERATIONS = [
  adminOperation({
    route: 'GET /accounts/{id}/snapshot',
    summary: 'Everything needed to recreate an account',
    description: `Keys with their tokens, every record, jobs, credits, the clock and webhook endpoints with their secrets (contract §5.3): \`POST /accounts {"snapshot"}\` loads it here or in another sandbox with the same seed. At most ${SNAPSHOT_BYTES} bytes (so it can be sent back); a larger account is 422 naming \`id\`.`,
    client: ['admin.accounts.snapshot(id)', 'tenant.snapshot()'],
    answer: { status: 200, description: 'The snapshot.', schema: accountSnapshotSchema },
    errors: [404, 422],
    handler: async (ctx, request) => {
      const { world } = ctx.sandbox;
      // Its seeded records derived in slices, then its jobs brought up to its clock, as every admin view of it.
      const account = await derivedAccountOr404(ctx, request.params.id);
      try {
        return new JsonText<AccountSnapshot>(snapshotText(takeSnapshot(world, account), SNAPSHOT_BYTES));
      } catch (error) {
        if (!(error instanceof OverBudget)) throw error;
        throw validationFailed({
          id: [`the account's snapshot would be over ${SNAPSHOT_BYTES} bytes, more than POST /__admin/accounts accepts back`],
        });
      }
    },
  }),
];

/**
 * The clock a loaded account gets (contract §5.3): its own, frozen at the snapshot's instant, unless
 * `clock` says otherwise: `frozen` (the same), `running` (its own, running from that instant),
 * `shared` (the sandbox clock), or an ISO instant (its own, frozen there).
 */
function loadedClock(setting: string | undefined, snapshot: AccountSnapshot, sharedNow: number): ClockBirth {
  const taken = Date.parse(snapshot.clock.now);
  if (setting === undefined || setting === 'frozen') return { mode: 'frozen', start: taken };
  if (setting === 'running') return { mode: 'running', start: taken };
  if (setting === 'shared') return { mode: undefined, start: sharedNow };
  const at = parseInstant(setting);
  if (at === undefined) throw validationFailed({ clock: [MESSAGES.accountClockSetting] });
  if (!isInClockRange(at)) throw validationFailed({ clock: [MESSAGES.clockOutOfRange(MIN_INSTANT, MAX_INSTANT)] });
  return { mode: 'frozen', start: at };
}

/** `POST /__admin/accounts {"snapshot", "clock"?}`: 201 as any account creation, with the snapshot's first key. */
export function createFromSnapshot(
  ctx: SandboxContext,
  body: { snapshot: unknown; clock?: string | undefined } & Record<string, unknown>,
): { account: AdminAccount; api_key: AdminApiKey & { token: string } } {
  const extra = DECIDED_BY_SNAPSHOT.find((member) => body[member] !== undefined);
  if (extra !== undefined) throw validationFailed({ [extra]: ['the snapshot decides it: send the snapshot alone (and "clock")'] });
  const { world } = ctx.sandbox;
  let account;
  try {
    const snapshot = decodeSnapshot(body.snapshot);
    account = loadSnapshot(world, snapshot, loadedClock(body.clock, snapshot, world.clock.now()));
  } catch (error) {
    if (error instanceof SnapshotConflict) throw new ApiError('resource_exists', { param: error.path, message: error.message });
    if (error instanceof SnapshotOverBudget) throw recordRefusal('record_budget_exceeded', error.path, error.message);
    if (error instanceof SnapshotProblem) throw validationFailed({ [error.path]: [error.message] });
    throw error;
  }
  // The decoder asks for at least one key; every key of a snapshot carries its token.
  const [key] = account.collection('api_keys').values();
  const token = key && world.store.tokenOf(key.id);
  if (!key || token === undefined) throw new Error(`loaded account ${account.id} has no key with a token`);
  return { account: accountView(world, account), api_key: apiKeyView(key, token) as unknown as AdminApiKey & { token: string } };
}
