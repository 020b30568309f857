/**
 * globalSetup of the example suite: one sandbox for every worker. A client project imports
 * `creator-commerce-mock/vitest`; this repository imports the same module from its sources.
 */
// Importing the entry point also types `inject('creatorCommerceMock')` (it augments vitest's ProvidedContext).
import { mockServerSetup } from '../../src/vitest.js';

// A frozen clock: jobs move only when a test advances it, so every run sees the same states.
export default mockServerSetup({ clock: '2026-01-15T12:00:00Z', seed: 7 });
