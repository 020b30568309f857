/**
 * Price variants of a new account, each linked to experiences (`experience_ids`), and the grants
 * their buyers hold: every buyer of a variant gets one grant per linked experience. A few grants are
 * already revoked (a refund, say), so `active_grants_count` visibly counts only active ones.
 */
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import type { PriceVariantRecord } from '../../store/records.js';
import { pastTimestamp, withPinned } from '../seed-support.js';
import { recountActiveGrants } from './grants.js';

const PLANS = [
  { name: 'Lifetime access', interval: 'one_time', amounts: [4900, 9700, 19900] },
  { name: 'Monthly membership', interval: 'month', amounts: [900, 1500, 2900] },
  { name: 'Annual membership', interval: 'year', amounts: [9000, 15000, 29000] },
  { name: 'Pro bundle', interval: 'one_time', amounts: [29900, 49900] },
] as const;

/** A generator: a derivation step per variant, and per variant's grants (src/fixture/account-template.ts). */
export function* seedPriceVariants(context: SeedContext): Generator<void, void, undefined> {
  const { store, faker, ids, now, count, pinned } = context;
  const variants = store.write('price_variants');
  const experienceIds = store
    .write('experiences')
    .values()
    .map((e) => e.id);
  for (const pin of withPinned(pinned.price_variants, count('price_variants', 6))) {
    // Every value is drawn whatever the pin sets, so a pinned value never shifts other records' data.
    const plan = faker.helpers.arrayElement(PLANS);
    const amount = faker.helpers.arrayElement(plan.amounts);
    const currency = faker.helpers.weightedArrayElement([
      { value: 'usd', weight: 6 },
      { value: 'eur', weight: 2 },
      { value: 'gbp', weight: 1 },
    ]);
    variants.insert({
      id: pin?.id ?? ids.next('pv'),
      object: 'price_variant',
      name: pin?.name ?? plan.name,
      amount: pin?.amount ?? amount,
      currency: pin?.currency ?? currency,
      interval: pin?.interval ?? plan.interval,
      experience_ids: pin?.experience_ids ? [...pin.experience_ids] : faker.helpers.arrayElements(experienceIds, { min: 1, max: 3 }),
      created_at: pastTimestamp(faker, now),
    });
    yield;
  }
  for (const variant of variants.values()) {
    seedGrants(context, variant);
    yield;
  }
  for (const id of experienceIds) recountActiveGrants(store, id);
}

function seedGrants({ store, faker, ids, now, count }: SeedContext, variant: PriceVariantRecord): void {
  const customers = store.write('customers').values();
  const buyers = faker.helpers.arrayElements(customers, Math.min(customers.length, count('grants_per_price_variant', 3)));
  for (const buyer of buyers) {
    // Bought after the customer existed; refunded (if at all) after buying.
    const grantedMs = faker.number.int({ min: Date.parse(buyer.created_at), max: now });
    const revokedMs = faker.number.int({ min: grantedMs, max: now });
    const refunded = faker.datatype.boolean({ probability: 0.15 });
    for (const experienceId of variant.experience_ids) {
      store.write('grants').insert({
        id: ids.next('grant'),
        object: 'grant',
        customer_id: buyer.id,
        experience_id: experienceId,
        price_variant_id: variant.id,
        status: refunded ? 'revoked' : 'active',
        granted_at: isoTimestamp(grantedMs),
        revoked_at: refunded ? isoTimestamp(revokedMs) : null,
      });
    }
  }
}
