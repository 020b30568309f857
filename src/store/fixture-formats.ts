/** Formats the fixture schema uses; shared by the generated validator and its generator. */
import type { FormatDefinition } from 'ajv';

export const fixtureFormats: Record<'date-time', FormatDefinition<string>> = {
  // A minimal date-time check keeps fixture loading free of ajv-formats.
  'date-time': { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s) },
};
