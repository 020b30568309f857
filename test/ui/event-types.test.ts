/**
 * The page offers the webhook event types from its own list (src/ui/page/event-types.ts: browser code
 * imports no value of the server); this is where that list meets the one the sandbox accepts.
 */
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/operations/event-types.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/ui/page/event-types.js';

describe("the dashboard's webhook event types (contract §4.3, §4.4)", () => {
  it('contract §4.3: Trigger event offers exactly the types POST /__admin/events accepts, in the same order', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...EVENT_TYPES]);
  });
});
