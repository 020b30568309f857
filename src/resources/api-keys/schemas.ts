import { nullableTimestampSchema, timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import type { ApiKeyRecord } from '../../store/records.js';
import { viewFrom } from '../view.js';

/** ApiKey of spec §2.2: every field always present. */
export const apiKeySchema: JsonSchema = {
  // A PascalCase title names the schema in the OpenAPI document (`#/components/schemas/ApiKey`).
  title: 'ApiKey',
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'name', 'last4', 'token_type', 'token', 'last_used_at', 'expires_at', 'created_at'],
  properties: {
    object: { const: 'api_key' },
    id: { type: 'string', pattern: '^key_' },
    name: { type: ['string', 'null'] },
    last4: { type: 'string', minLength: 4, maxLength: 4 },
    token_type: { const: 'api_key' },
    token: { type: ['string', 'null'], description: 'The full secret: only in the create response.' },
    last_used_at: nullableTimestampSchema,
    expires_at: nullableTimestampSchema,
    created_at: timestampSchema,
  },
};

const apiKeyFields = viewFrom<ApiKeyRecord>(apiKeySchema);

/** The public view (the fields of apiKeySchema): the secret only when `token` is given (create). */
export function apiKeyView(key: ApiKeyRecord, token: string | null = null) {
  return { ...apiKeyFields(key), token };
}
