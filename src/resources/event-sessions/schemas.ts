/** EventSession of spec §2.8, and the create body of §4.12 with the defaults we chose (README fidelity table). */
import { timestampSchema } from '../../operations/schemas.js';
import type { JsonSchema } from '../../operations/types.js';
import { viewFrom } from '../view.js';
import { LOCATION_TYPES, REPEAT_FREQUENCIES, type EventSessionRecord } from '../../store/records.js';

/** Minutes an event session lasts when `end_time` is omitted. */
export const DEFAULT_SESSION_MINUTES = 60;

export interface CreateEventSessionBody {
  /** Defaults to the experience's name: the spec does not say the title is required. */
  title?: string;
  description: string;
  start_time: string;
  end_time?: string;
  location_type: EventSessionRecord['location_type'];
  location_details: string;
  allow_rsvp: boolean;
  capacity: number | null;
  repeat_frequency: EventSessionRecord['repeat_frequency'];
}

export const createEventSessionBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  // Only what a session cannot be scheduled without (spec §4.12 leaves the required fields unshown).
  required: ['start_time'],
  properties: {
    title: { type: 'string', description: "Defaults to the experience's name." },
    description: { type: 'string', default: '' },
    start_time: { ...timestampSchema, description: 'ISO 8601 with a time zone offset.' },
    end_time: { ...timestampSchema, description: `After start_time; defaults to ${DEFAULT_SESSION_MINUTES} minutes after it.` },
    location_type: { enum: LOCATION_TYPES, default: 'zoom' },
    location_details: { type: 'string', default: '', description: 'A meeting link or a street address.' },
    allow_rsvp: { type: 'boolean', default: true },
    capacity: { type: ['integer', 'null'], minimum: 1, default: null, description: 'At least 1; null (the default) means no limit.' },
    repeat_frequency: { enum: REPEAT_FREQUENCIES, default: 'never' },
  },
};

export const eventSessionSchema: JsonSchema = {
  title: 'EventSession',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'object',
    'title',
    'description',
    'start_time',
    'end_time',
    'location_type',
    'location_details',
    'allow_rsvp',
    'capacity',
    'repeat_frequency',
  ],
  properties: {
    id: { type: 'string', pattern: '^evs_' },
    object: { const: 'event_session' },
    title: { type: 'string' },
    description: { type: 'string' },
    start_time: timestampSchema,
    end_time: timestampSchema,
    location_type: { enum: LOCATION_TYPES },
    location_details: { type: 'string' },
    allow_rsvp: { type: 'boolean' },
    capacity: { type: ['integer', 'null'], minimum: 1 },
    repeat_frequency: { enum: REPEAT_FREQUENCIES },
  },
};

export const eventSessionView = viewFrom<EventSessionRecord>(eventSessionSchema);
