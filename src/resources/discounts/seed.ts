/** Discounts of a new account: codes with a slug (what customers type at checkout), percent or amount off. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import { pastTimestamp, uniqueSlug, withPinned } from '../seed-support.js';

const OCCASIONS = ['launch', 'spring', 'summer', 'blackfriday', 'newyear', 'vip', 'welcome', 'students', 'earlybird', 'bundle'];
const DAY_MS = 24 * 3600 * 1000;

export function seedDiscounts({ store, faker, ids, now, count, pinned }: SeedContext): void {
  const discounts = store.write('discounts');
  const slugs = new Set((pinned.discounts ?? []).map((d) => d.slug));
  for (const pin of withPinned(pinned.discounts, count('discounts', 5))) {
    const percent = faker.datatype.boolean({ probability: 0.7 });
    const off = percent ? faker.helpers.arrayElement([10, 15, 20, 25, 50]) : faker.helpers.arrayElement([500, 1000, 2000]);
    const occasion = faker.helpers.arrayElement(OCCASIONS);
    const slug = pin?.slug ?? uniqueSlug(`${occasion}${percent ? off : off / 100}`, slugs);
    const limited = faker.datatype.boolean();
    const maxRedemptions = limited ? faker.helpers.arrayElement([50, 100, 500]) : null;
    discounts.insert({
      id: pin?.id ?? ids.next('disc'),
      object: 'discount',
      slug,
      name: percent ? `${off}% off (${occasion})` : `$${off / 100} off (${occasion})`,
      percent_off: percent ? off : null,
      amount_off: percent ? null : off,
      currency: percent ? null : 'usd',
      duration: faker.helpers.arrayElement(['once', 'repeating', 'forever']),
      max_redemptions: maxRedemptions,
      times_redeemed: faker.number.int({ min: 0, max: maxRedemptions ?? 300 }),
      expires_at: faker.datatype.boolean() ? isoTimestamp(now + faker.number.int({ min: 7, max: 90 }) * DAY_MS) : null,
      created_at: pastTimestamp(faker, now, 120),
    });
  }
}
