/** Formats the fixture schema uses; shared by the generated validator and its generator. */
import type { FormatDefinition } from 'ajv';
import { isInstant } from '../clock/virtual-clock.js';

export const fixtureFormats: Record<'date-time', FormatDefinition<string>> = {
  // The sandbox's one date-time rule (offset required, the instant must exist), free of ajv-formats.
  'date-time': { type: 'string', validate: isInstant },
};
