/** API keys: spec §4.1, §4.2, §2.2, §5.2. */
import { listPage, type ListQuery } from '../../operations/pagination.js';
import { listEnvelopeSchema, paginatedQuery } from '../../operations/schemas.js';
import { defineOperation } from '../../operations/types.js';
import { apiKeySchema, apiKeyView } from './schemas.js';

export const createApiKey = defineOperation<{ name?: string | null }>({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/auth/keys',
  tag: 'API keys',
  specSection: '4.1',
  summary: 'Create API key',
  description: 'Creates an API key for the current account. The full secret (`token`) is returned in this response only.',
  body: {
    type: 'object',
    additionalProperties: false,
    properties: { name: { type: ['string', 'null'], description: 'Label, any string; defaults to "Default" when omitted or null.' } },
  },
  success: { status: 201, description: 'The new key, with its secret.', schema: apiKeySchema },
  errors: [400, 401, 403, 422, 429, 500],
  // Adds a record counted against the record budget, reads no seeded collection.
  seededRecords: 'weight',
  handler({ body, store, sandbox, events }) {
    const { key, token } = sandbox.createApiKey(store, { name: body.name ?? 'Default' });
    // Without the secret: a webhook payload is logged and stored by receivers, a token must not travel in it.
    events.emit('api_key.created', apiKeyView(key));
    return { body: apiKeyView(key, token) };
  },
});

export const listApiKeys = defineOperation<undefined, ListQuery>({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/auth/keys',
  tag: 'API keys',
  specSection: '4.2',
  summary: 'List API keys',
  description: 'Lists the API keys of the current account, newest first. Secrets are never returned; only `last4`.',
  query: paginatedQuery(),
  success: { status: 200, description: 'A page of API keys.', schema: listEnvelopeSchema(apiKeySchema) },
  errors: [400, 401, 403, 429, 500],
  // Reads the account record, its keys or its jobs: none of them seeded.
  seededRecords: false,
  handler({ query, store, path }) {
    return { body: listPage(store.collection('api_keys'), query, { url: path, view: (key) => apiKeyView(key) }) };
  },
});

export const apiKeyOperations = [createApiKey, listApiKeys];
