/**
 * The `fault` part of a scenario effect (contract §4.2): the answer is lost on the way, as a
 * transport failure rather than a status. The socket actions themselves live in src/http/faults.ts;
 * this is the data a scenario file writes and what the engine plans with.
 *
 *   { "fault": { "type": "connection-reset", "when": "after" } }
 *   { "fault": { "type": "no-response", "after_ms": 5000 } }
 */
import type { Shape } from './shape.js';

/** The fault types, named like the scenarios that ship them: the journal's `fault` says the same. */
export const FAULT_TYPES = ['connection-reset', 'empty-response', 'truncated-response', 'no-response'] as const;
export type FaultType = (typeof FAULT_TYPES)[number];

/** `before`: the operation never runs; `after`: it runs (state, idempotency, journal), then the answer is lost. */
export const FAULT_MOMENTS = ['before', 'after'] as const;
export type FaultMoment = (typeof FAULT_MOMENTS)[number];

/** How long `no-response` holds a connection by default, and at most (contract §4.2). */
export const DEFAULT_HOLD_MS = 30_000;
export const MAX_HOLD_MS = 120_000;

export const FAULT_SHAPE: Shape = {
  kind: 'object',
  required: ['type'],
  fields: {
    type: { kind: 'enum', values: FAULT_TYPES },
    when: { kind: 'enum', values: FAULT_MOMENTS },
    after_ms: { kind: 'integer', min: 0, max: MAX_HOLD_MS },
  },
};

export interface FaultEffect {
  type: FaultType;
  when: FaultMoment;
  /** How long `no-response` holds the connection before closing it; unused by the others. */
  afterMs: number;
}

export function resolveFault(raw: { type: FaultType; when?: FaultMoment; after_ms?: number }): FaultEffect {
  return { type: raw.type, when: raw.when ?? 'before', afterMs: raw.after_ms ?? DEFAULT_HOLD_MS };
}
