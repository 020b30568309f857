/** An API key's stored record (spec §2.2), as the sandbox makes it for `POST /v1/auth/keys` and the admin API. */
import { isoTimestamp, type VirtualClock } from '../../clock/virtual-clock.js';
import type { NewApiKey } from '../../operations/types.js';
import type { ApiKeyRecord } from '../../store/records.js';

/** The record of a new key: `token` gives only its last four characters. */
export function keyRecord(id: string, token: string, input: NewApiKey, clock: VirtualClock): ApiKeyRecord {
  return {
    id,
    object: 'api_key',
    name: input.name === undefined ? 'Default' : input.name,
    last4: token.slice(-4),
    token_type: 'api_key',
    last_used_at: null,
    expires_at: input.expiresAt ? isoTimestamp(Date.parse(input.expiresAt)) : null,
    created_at: isoTimestamp(clock.now()),
    access: input.access ?? 'full',
    revoked_at: null,
  };
}
