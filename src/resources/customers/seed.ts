/** Customers of a new account: made by the template, matched by email on form submissions. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';

export function seedCustomers({ store, faker, ids, now, count }: SeedContext): void {
  const customers = store.write('customers');
  const n = count('customers', 8);
  for (let i = 0; i < n; i++) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    customers.insert({
      id: ids.next('cus'),
      object: 'customer',
      name: `${first} ${last}`,
      email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase(),
      created_at: isoTimestamp(faker.date.past({ years: 1, refDate: now }).getTime()),
    });
  }
}
