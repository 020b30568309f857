/** Discounts of a new account: codes with a slug (what customers type at checkout), percent or amount off. */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import { normalInstant, pastTimestamp, uniqueSlug, withPinned } from '../seed-support.js';

const OCCASIONS = ['launch', 'spring', 'summer', 'blackfriday', 'newyear', 'vip', 'welcome', 'students', 'earlybird', 'bundle'];
const DAY_MS = 24 * 3600 * 1000;

/** A generator: a derivation step per discount (src/fixture/account-template.ts). */
export function* seedDiscounts({ store, faker, ids, now, count, pinned }: SeedContext): Generator<void, void, undefined> {
  const discounts = store.write('discounts');
  const slugs = new Set((pinned.discounts ?? []).flatMap((d) => (d.slug ? [d.slug] : [])));
  for (const pin of withPinned(pinned.discounts, count('discounts', 5))) {
    // Every value is drawn whatever the pin sets, so a pinned value never shifts other records' data.
    const seededPercent = faker.datatype.boolean({ probability: 0.7 });
    const seededOff = seededPercent ? faker.helpers.arrayElement([10, 15, 20, 25, 50]) : faker.helpers.arrayElement([500, 1000, 2000]);
    const occasion = faker.helpers.arrayElement(OCCASIONS);
    const limited = faker.datatype.boolean();
    const seededMax = limited ? faker.helpers.arrayElement([50, 100, 500]) : null;
    const duration = faker.helpers.arrayElement(['once', 'repeating', 'forever'] as const);
    const seededTimes = faker.number.int({ min: 0, max: seededMax ?? 300 });
    const expiresAt = faker.datatype.boolean() ? isoTimestamp(now + faker.number.int({ min: 7, max: 90 }) * DAY_MS) : null;
    const createdAt = pastTimestamp(faker, now, 120);
    // A pinned percent or amount decides the kind; the other two members follow it.
    const percent = pin?.percent_off != null ? true : pin?.amount_off != null ? false : seededPercent;
    const off = (percent ? pin?.percent_off : pin?.amount_off) ?? seededOff;
    const slug = pin?.slug ?? uniqueSlug(`${occasion}${percent ? off : off / 100}`, slugs);
    const times = pin?.times_redeemed ?? seededTimes;
    // A seeded limit never falls below a pinned count of redemptions, nor a seeded count above a pinned limit.
    const max = pin?.max_redemptions !== undefined ? pin.max_redemptions : seededMax !== null && seededMax < times ? null : seededMax;
    discounts.insert({
      id: pin?.id ?? ids.next('disc'),
      object: 'discount',
      slug,
      name: pin?.name ?? (percent ? `${off}% off (${occasion})` : `$${off / 100} off (${occasion})`),
      percent_off: percent ? off : null,
      amount_off: percent ? null : off,
      currency: percent ? null : (pin?.currency ?? 'usd'),
      duration: pin?.duration ?? duration,
      max_redemptions: max,
      times_redeemed: max !== null && pin?.times_redeemed === undefined ? Math.min(times, max) : times,
      expires_at: pin?.expires_at !== undefined ? normalInstant(pin.expires_at) : expiresAt,
      created_at: createdAt,
    });
    yield;
  }
}
