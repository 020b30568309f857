/**
 * Ad accounts (`adacct_…`) and their conversion destinations (`addest_…`, a pixel or dataset on an
 * ad platform). The pair (destination id, its `account_id`) is what `POST /v1/ads/conversions`
 * takes. Pinned destinations come first and their ad accounts count toward `ad_accounts`.
 */
import type { Faker } from '@faker-js/faker';
import type { SeedContext } from '../../fixture/account-template.js';
import type { AdDestinationRecord } from '../../store/records.js';
import { groupBy, pastTimestamp } from '../seed-support.js';

const PLATFORMS: Record<AdDestinationRecord['platform'], { label: string; pixel(faker: Faker): string }> = {
  meta: { label: 'Meta Pixel', pixel: (f) => f.string.numeric({ length: 15, allowLeadingZeros: false }) },
  google_ads: { label: 'Google Ads conversion', pixel: (f) => `AW-${f.string.numeric({ length: 10, allowLeadingZeros: false })}` },
  tiktok: { label: 'TikTok Pixel', pixel: (f) => f.string.alphanumeric({ length: 20, casing: 'upper' }) },
  pinterest: { label: 'Pinterest Tag', pixel: (f) => f.string.numeric({ length: 13, allowLeadingZeros: false }) },
};

export function seedAdDestinations({ store, faker, ids, now, count, pinned }: SeedContext): void {
  const destinations = store.write('ad_destinations');
  const pins = pinned.ad_destinations ?? [];
  // Grouped once: pinned records may come inline from a request, so nothing here is quadratic in them.
  const pinsByAccount = groupBy(pins, (p) => p.account_id);
  const adAccounts = [...pinsByAccount.keys()];
  while (adAccounts.length < count('ad_accounts', 2)) adAccounts.push(ids.next('adacct'));
  const perAccount = count('ad_destinations_per_ad_account', 2);
  for (const accountId of adAccounts) {
    const pinnedHere = pinsByAccount.get(accountId) ?? [];
    for (let i = 0; i < Math.max(perAccount, pinnedHere.length); i++) {
      const pin = pinnedHere[i];
      // Drawn whatever the pin sets, so a pinned value never shifts other records' data.
      const seededPlatform = faker.helpers.objectKey(PLATFORMS);
      const seededPixel = PLATFORMS[seededPlatform].pixel(faker);
      const platform = pin?.platform ?? seededPlatform;
      const pixelId = pin?.pixel_id ?? seededPixel;
      destinations.insert({
        id: pin?.id ?? ids.next('addest'),
        object: 'ad_destination',
        account_id: accountId,
        platform,
        name: pin?.name ?? `${PLATFORMS[platform].label} ${pixelId}`,
        pixel_id: pixelId,
        created_at: pastTimestamp(faker, now),
      });
    }
  }
}
