/**
 * Spec §5: every operation needs a valid `Authorization: Bearer <API_KEY>`. Missing, malformed,
 * unknown, revoked or expired credentials get 401; a read-only key gets 403 on any write. On success
 * the handler's store is the caller's account, scoped: tenancy is decided here and nowhere else.
 */
import { isoTimestamp } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { SandboxMiddleware } from './context.js';
import { requestTime } from './identify-caller.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isKeyExpired(key: ApiKeyRecord, now: number): boolean {
  return key.expires_at !== null && Date.parse(key.expires_at) <= now;
}

export function authenticate(): SandboxMiddleware {
  return function authenticateMiddleware(ctx, next) {
    const caller = ctx.state.caller;
    if (!caller || caller.kind === 'anonymous') {
      const message =
        caller?.reason === 'malformed'
          ? MESSAGES.authMalformed
          : caller?.reason === 'unknown'
            ? MESSAGES.authUnknown
            : MESSAGES.authMissing;
      throw new ApiError('authentication_required', { message });
    }
    const { key, account } = caller;
    const now = requestTime(ctx).clock.now();
    if (key.revoked_at !== null) throw new ApiError('authentication_required', { message: MESSAGES.authRevoked });
    if (isKeyExpired(key, now)) throw new ApiError('authentication_required', { message: MESSAGES.authExpired });
    if (key.access === 'read_only' && !READ_METHODS.has(ctx.method)) throw new ApiError('forbidden', { message: MESSAGES.readOnlyKey });
    // Counted (O(1)): the first use grows the key from null to a timestamp, which the record budget
    // counts; later ones put a timestamp of the same length in its place.
    if (key.last_used_at === null) account.write('api_keys').update(key.id, (used) => (used.last_used_at = isoTimestamp(now)));
    else key.last_used_at = isoTimestamp(now);
    ctx.state.apiKey = key;
    ctx.state.store = account;
    return next();
  };
}
