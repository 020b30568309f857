/**
 * Lead-magnet forms of a new account: pinned forms first, then the presets in turn. A form delivers
 * one of the account's `digital_download` experiences when there is one.
 */
import type { SeedContext } from '../../fixture/account-template.js';
import { FORM_PRESETS, type PinnedForm } from '../../store/pinned-records.js';
import type { FormField } from '../../store/records.js';
import { pastTimestamp, topic, withPinned } from '../seed-support.js';
import { PRESETS, type PresetField } from './presets.js';

export function seedForms({ store, faker, ids, now, count, pinned }: SeedContext): void {
  const downloads = store.write('experiences').filter((e) => e.type === 'digital_download');
  let turn = 0;
  for (const pin of withPinned(pinned.forms, count('forms', 4))) {
    // A pinned form without a preset starts from the newsletter one (email only), drawing nothing.
    const preset = PRESETS[pin ? (pin.preset ?? 'newsletter') : FORM_PRESETS[turn++ % FORM_PRESETS.length]!];
    const fieldId = (key: string) => (pin ? `fld_${pin.id.slice('frm_'.length)}_${key}` : ids.next('fld'));
    // Every value is drawn whatever the pin sets, and in the same order, so a pinned value never
    // shifts other records' data.
    const id = pin?.id ?? ids.next('frm');
    const name = preset.name(topic(faker));
    const presetFields = preset.fields(faker).map(({ key, ...field }) => ({ id: fieldId(key), ...field }));
    const leadMagnet = downloads.length > 0 ? faker.helpers.arrayElement(downloads).id : null;
    const createdAt = pastTimestamp(faker, now);
    store.write('forms').insert({
      id,
      object: 'form',
      name: pin?.name ?? name,
      fields: pin?.fields ? pinnedFields(pin, fieldId) : presetFields,
      lead_magnet_experience_id: pin?.lead_magnet_experience_id !== undefined ? pin.lead_magnet_experience_id : leadMagnet,
      created_at: createdAt,
    });
  }
}

/** A pinned form's own fields; a field without an id gets `fld_<form id without frm_>_<position from 1>`. */
function pinnedFields(pin: PinnedForm, fieldId: (key: PresetField['key']) => string): FormField[] {
  return (pin.fields ?? []).map((field, i) => ({
    id: field.id ?? fieldId(String(i + 1)),
    field_type: field.field_type,
    label: field.label,
    required: field.required ?? false,
    options: [...(field.options ?? [])],
  }));
}
