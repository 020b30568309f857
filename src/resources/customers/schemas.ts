/**
 * A Customer as webhook events show it (contract §4.3 `customer.created`). The API has no customer
 * operation (customers are made by form submissions, spec §4.5), so this schema is the one place the
 * shape is written; /openapi.json names it under `components.schemas.Customer`.
 */
import { timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import type { CustomerRecord } from '../../store/records.js';
import { viewFrom } from '../view.js';

export const customerSchema: JsonSchema = {
  title: 'Customer',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'name', 'email', 'created_at'],
  properties: {
    id: { type: 'string', pattern: '^cus_' },
    object: { const: 'customer' },
    name: { type: 'string' },
    email: { type: 'string', description: 'Lower-cased: customers are matched by email case-insensitively.' },
    created_at: timestampSchema,
  },
};

export const customerView = viewFrom<CustomerRecord>(customerSchema);
