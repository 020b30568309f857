/**
 * The kinds of lead-magnet form the template makes. Each field has a `key`: pinned forms get field
 * ids `fld_<form id without frm_>_<key>` (stable, documented); other forms get seeded ids.
 */
import type { Faker } from '@faker-js/faker';
import type { FormPreset } from '../../store/pinned-records.js';
import type { FormFieldType } from '../../store/records.js';
import { TOPICS } from '../seed-support.js';

export interface PresetField {
  key: string;
  field_type: FormFieldType;
  label: string;
  required: boolean;
  options: string[];
}

export const PRESETS: Record<FormPreset, { name(topic: string): string; fields(faker: Faker): PresetField[] }> = {
  newsletter: {
    name: (topic) => `${topic} Newsletter`,
    fields: () => [{ key: 'email', field_type: 'email', label: 'Email address', required: true, options: [] }],
  },
  survey: {
    name: (topic) => `Free ${topic} Guide`,
    fields: (faker) => [
      { key: 'email', field_type: 'email', label: 'Email address', required: true, options: [] },
      { key: 'name', field_type: 'text', label: 'First name', required: false, options: [] },
      {
        key: 'role',
        field_type: 'select',
        label: 'What best describes you?',
        required: true,
        options: ['Just starting out', 'Side project', 'Full-time creator', 'Agency or team'],
      },
      {
        key: 'topics',
        field_type: 'checkbox',
        label: 'Which topics should we cover?',
        required: false,
        options: faker.helpers.arrayElements([...TOPICS], 4),
      },
    ],
  },
  registration: {
    name: (topic) => `${topic} Workshop Registration`,
    fields: () => [
      { key: 'email', field_type: 'email', label: 'Email address', required: true, options: [] },
      { key: 'name', field_type: 'text', label: 'Full name', required: true, options: [] },
      { key: 'phone', field_type: 'phone', label: 'Phone number (for SMS reminders)', required: false, options: [] },
      { key: 'website', field_type: 'url', label: 'Your website', required: false, options: [] },
      { key: 'goals', field_type: 'textarea', label: 'What do you hope to learn?', required: false, options: [] },
      { key: 'consent', field_type: 'checkbox', label: 'I agree to receive emails about this workshop', required: true, options: [] },
    ],
  },
};
