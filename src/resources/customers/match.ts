/** Customers are matched by email, case-insensitively (spec §4.5: "created or matched by email"). */
import type { CustomerRecord } from '../../store/records.js';
import type { AccountStore } from '../../store/store.js';

/** The account's customer with this email, whatever its case. */
export function findCustomer(store: AccountStore, email: string): CustomerRecord | undefined {
  const normalized = email.trim().toLowerCase();
  return store.collection('customers').find((c) => c.email === normalized);
}

/** A new customer record (not yet stored): the email kept lower-case, as matching reads it. */
export function newCustomer(id: string, email: string, name: string, createdAt: string): CustomerRecord {
  return { id, object: 'customer', name, email: email.trim().toLowerCase(), created_at: createdAt };
}
