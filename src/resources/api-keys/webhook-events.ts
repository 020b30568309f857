/** `api_key.created` (contract §4.3). */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import { defineEvent, newestRecord } from '../../operations/event-types.js';
import { apiKeySchema, apiKeyView } from './schemas.js';

export const apiKeyCreated = defineEvent({
  type: 'api_key.created',
  description: 'An API key was created (`POST /v1/auth/keys`). `token` is always null here: secrets never travel in events.',
  object: apiKeySchema,
  sample: ({ account, ids, now }) =>
    apiKeyView(
      newestRecord(account.collection('api_keys').values()) ?? {
        id: ids.next('key'),
        object: 'api_key',
        name: 'Sample',
        last4: '0000',
        token_type: 'api_key',
        last_used_at: null,
        expires_at: null,
        created_at: isoTimestamp(now),
        access: 'full',
        revoked_at: null,
      },
    ),
});
