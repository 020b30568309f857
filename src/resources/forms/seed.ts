/**
 * Lead-magnet forms of a new account: pinned forms first, then the presets in turn. A form delivers
 * one of the account's `digital_download` experiences when there is one.
 */
import type { SeedContext } from '../../fixture/account-template.js';
import { FORM_PRESETS } from '../../store/pinned-records.js';
import { pastTimestamp, topic, withPinned } from '../seed-support.js';
import { PRESETS } from './presets.js';

export function seedForms({ store, faker, ids, now, count, pinned }: SeedContext): void {
  const downloads = store.write('experiences').filter((e) => e.type === 'digital_download');
  let turn = 0;
  for (const pin of withPinned(pinned.forms, count('forms', 4))) {
    const preset = PRESETS[pin?.preset ?? FORM_PRESETS[turn++ % FORM_PRESETS.length]!];
    const fieldId = (key: string) => (pin ? `fld_${pin.id.slice('frm_'.length)}_${key}` : ids.next('fld'));
    store.write('forms').insert({
      id: pin?.id ?? ids.next('frm'),
      object: 'form',
      name: preset.name(topic(faker)),
      fields: preset.fields(faker).map(({ key, ...field }) => ({ id: fieldId(key), ...field })),
      lead_magnet_experience_id: downloads.length > 0 ? faker.helpers.arrayElement(downloads).id : null,
      created_at: pastTimestamp(faker, now),
    });
  }
}
