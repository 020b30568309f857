/** Customers are matched by email, case-insensitively (spec §4.5: "created or matched by email"). */
import type { HandlerServices } from '../../operations/types.js';
import type { CustomerRecord } from '../../store/records.js';
import type { AccountStore } from '../../store/store.js';

export function findOrCreateCustomer(
  store: AccountStore,
  sandbox: HandlerServices,
  email: string,
  name: string,
): { customer: CustomerRecord; created: boolean } {
  const normalized = email.trim().toLowerCase();
  const existing = store.collection('customers').find((c) => c.email === normalized);
  if (existing) return { customer: existing, created: false };
  const customer = store.write('customers').insert({
    id: sandbox.idsOf(store).next('cus'),
    object: 'customer',
    name,
    email: normalized,
    created_at: sandbox.timestamp(),
  });
  return { customer, created: true };
}
