/** Customers of a new account: pinned ones first, then seeded; matched by email on form submissions. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import { withPinned } from '../seed-support.js';

/** A generator: a derivation step per customer (src/fixture/account-template.ts). */
export function* seedCustomers({ store, faker, ids, now, count, pinned }: SeedContext): Generator<void, void, undefined> {
  const customers = store.write('customers');
  const taken = new Set((pinned.customers ?? []).flatMap((c) => (c.email ? [c.email.toLowerCase()] : [])));
  for (const pin of withPinned(pinned.customers, count('customers', 8))) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    let email = faker.internet.email({ firstName: first, lastName: last }).toLowerCase();
    const created = isoTimestamp(faker.date.past({ years: 1, refDate: now }).getTime());
    // A seeded address may not take one a pinned customer set: emails identify customers (spec §4.5).
    if (pin?.email === undefined) email = unusedEmail(email, taken);
    customers.insert({
      id: pin?.id ?? ids.next('cus'),
      object: 'customer',
      name: pin?.name ?? `${first} ${last}`,
      email: pin?.email?.toLowerCase() ?? email,
      created_at: created,
    });
    yield;
  }
}

function unusedEmail(email: string, taken: Set<string>): string {
  const at = email.lastIndexOf('@');
  let candidate = email;
  for (let n = 2; taken.has(candidate); n++) candidate = `${email.slice(0, at)}${n}${email.slice(at)}`;
  return candidate;
}
