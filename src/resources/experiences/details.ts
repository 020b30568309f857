/**
 * The type-specific `details` of an experience (spec §2.7 says only "type-specific"). One entry per
 * type: how a name is made, what its details hold (the schema the API answers with, documented in
 * the README), and a seeded generator of realistic values.
 */
import type { Faker } from '@faker-js/faker';
import type { JsonSchema } from '../../operations/types.js';
import type { IdGenerator } from '../../random.js';
import type { ExperienceType } from '../../store/records.js';

interface DetailsKind {
  name(topic: string): string;
  description(topic: string): string;
  schema: Record<string, JsonSchema>;
  generate(faker: Faker, ids: IdGenerator, slug: string): Record<string, unknown>;
}

const url: JsonSchema = { type: 'string', format: 'uri' };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const snowflake = (faker: Faker) => faker.string.numeric({ length: 18, allowLeadingZeros: false });
const LOCATIONS = ['zoom', 'google_meet', 'custom_link', 'physical_address'] as const;

export const DETAILS: Record<ExperienceType, DetailsKind> = {
  digital_download: {
    name: (topic) => `${topic} Starter Kit`,
    description: (topic) => `Templates, checklists and presets to get started with ${topic.toLowerCase()} this weekend.`,
    schema: {
      files: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['file_id', 'filename', 'content_type', 'size_bytes'],
          properties: {
            file_id: { type: 'string', pattern: '^file_' },
            filename: { type: 'string' },
            content_type: { type: 'string' },
            size_bytes: count,
          },
        },
      },
      download_limit: { type: ['integer', 'null'], minimum: 1 },
    },
    generate: (faker, ids, slug) => ({
      files: faker.helpers
        .arrayElements(
          [
            { ext: 'pdf', type: 'application/pdf' },
            { ext: 'zip', type: 'application/zip' },
            { ext: 'xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
          ],
          { min: 1, max: 2 },
        )
        .map((file) => ({
          file_id: ids.next('file'),
          filename: `${slug}.${file.ext}`,
          content_type: file.type,
          size_bytes: faker.number.int({ min: 80_000, max: 250_000_000 }),
        })),
      download_limit: faker.helpers.arrayElement([null, 3, 5]),
    }),
  },
  course: {
    name: (topic) => `${topic} Masterclass`,
    description: (topic) => `A self-paced ${topic.toLowerCase()} course with video lessons, worksheets and a private Q&A.`,
    schema: {
      modules_count: count,
      lessons_count: count,
      drip_interval_days: { type: ['integer', 'null'], minimum: 1 },
      certificate_enabled: { type: 'boolean' },
    },
    generate: (faker) => {
      const modules = faker.number.int({ min: 3, max: 10 });
      return {
        modules_count: modules,
        lessons_count: modules * faker.number.int({ min: 3, max: 8 }),
        drip_interval_days: faker.helpers.arrayElement([null, 7]),
        certificate_enabled: faker.datatype.boolean(),
      };
    },
  },
  written_content: {
    name: (topic) => `The ${topic} Playbook`,
    description: (topic) => `Everything I have learned about ${topic.toLowerCase()}, written down step by step.`,
    schema: { format: { enum: ['article', 'ebook', 'guide'] }, word_count: count, reading_time_minutes: count },
    generate: (faker) => {
      const words = faker.number.int({ min: 1_200, max: 40_000 });
      // Reading time at about 238 words a minute, as most publishing tools estimate it.
      return {
        format: faker.helpers.arrayElement(['article', 'ebook', 'guide']),
        word_count: words,
        reading_time_minutes: Math.ceil(words / 238),
      };
    },
  },
  website_embed: {
    name: (topic) => `${topic} Calculator`,
    description: (topic) => `An interactive ${topic.toLowerCase()} calculator, embedded for members.`,
    schema: { url, height_px: count, allow_fullscreen: { type: 'boolean' } },
    generate: (faker, _ids, slug) => ({
      url: `https://embed.${faker.internet.domainName()}/${slug}`,
      height_px: faker.helpers.arrayElement([480, 640, 800]),
      allow_fullscreen: faker.datatype.boolean(),
    }),
  },
  link: {
    name: (topic) => `${topic} Resource Library`,
    description: (topic) => `A curated, regularly updated library of the best ${topic.toLowerCase()} resources.`,
    schema: { url, open_in_new_tab: { type: 'boolean' } },
    generate: (faker, _ids, slug) => ({ url: `https://${faker.internet.domainName()}/${slug}`, open_in_new_tab: true }),
  },
  forum: {
    name: (topic) => `${topic} Community Forum`,
    description: (topic) => `Ask questions, share your work and get feedback from other ${topic.toLowerCase()} fans.`,
    schema: { topics_count: count, posts_count: count, members_can_post: { type: 'boolean' }, moderation: { enum: ['pre', 'post'] } },
    generate: (faker) => {
      const topics = faker.number.int({ min: 5, max: 400 });
      return {
        topics_count: topics,
        posts_count: topics * faker.number.int({ min: 2, max: 30 }),
        members_can_post: faker.datatype.boolean({ probability: 0.8 }),
        moderation: faker.helpers.arrayElement(['pre', 'post']),
      };
    },
  },
  discord_server: {
    name: (topic) => `${topic} Discord`,
    description: (topic) => `Members-only Discord server for daily ${topic.toLowerCase()} chat and weekly challenges.`,
    schema: {
      guild_id: { type: 'string', pattern: '^[0-9]{17,20}$' },
      invite_url: url,
      role_ids: { type: 'array', items: { type: 'string', pattern: '^[0-9]{17,20}$' } },
    },
    generate: (faker) => ({
      guild_id: snowflake(faker),
      invite_url: `https://discord.gg/${faker.string.alphanumeric(8)}`,
      role_ids: [snowflake(faker)],
    }),
  },
  telegram: {
    name: (topic) => `${topic} Telegram Channel`,
    description: (topic) => `Short ${topic.toLowerCase()} tips and announcements, straight to your phone.`,
    schema: { chat_type: { enum: ['channel', 'supergroup'] }, chat_id: { type: 'string', pattern: '^-100[0-9]{10}$' }, invite_link: url },
    generate: (faker) => ({
      chat_type: faker.helpers.arrayElement(['channel', 'supergroup']),
      chat_id: `-100${faker.string.numeric({ length: 10, allowLeadingZeros: false })}`,
      invite_link: `https://t.me/+${faker.string.alphanumeric(16)}`,
    }),
  },
  event: {
    name: (topic) => `Live ${topic} Workshop`,
    description: (topic) => `A live, hands-on ${topic.toLowerCase()} workshop with time for your questions.`,
    schema: { timezone: { type: 'string' }, host_name: { type: 'string' }, replay_available: { type: 'boolean' } },
    generate: (faker) => ({
      timezone: faker.helpers.arrayElement(['America/New_York', 'Europe/London', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney']),
      host_name: faker.person.fullName(),
      replay_available: faker.datatype.boolean(),
    }),
  },
  event_type: {
    name: (topic) => `1:1 ${topic} Coaching Call`,
    description: (topic) => `Book a private session to review your ${topic.toLowerCase()} work together.`,
    schema: {
      duration_minutes: { type: 'integer', minimum: 5 },
      buffer_minutes: count,
      location_type: { enum: LOCATIONS },
      booking_url: url,
    },
    generate: (faker, _ids, slug) => ({
      duration_minutes: faker.helpers.arrayElement([15, 30, 45, 60]),
      buffer_minutes: faker.helpers.arrayElement([0, 10, 15]),
      location_type: faker.helpers.arrayElement(LOCATIONS),
      booking_url: `https://${faker.internet.domainName()}/book/${slug}`,
    }),
  },
};

/** `course` -> `Course`, `event_type` -> `EventType`: the stem of the type's schema names. */
export function pascalCase(type: string): string {
  return type.replace(/(^|_)([a-z])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());
}

/** The `details` of one type: closed, every member present (`CourseDetails`, … in the OpenAPI document). */
export function detailsSchemaFor(type: ExperienceType): JsonSchema {
  const { schema } = DETAILS[type];
  return {
    title: `${pascalCase(type)}Details`,
    type: 'object',
    additionalProperties: false,
    required: Object.keys(schema),
    properties: schema,
  };
}
