/** The twist query (contract §4.3): the hub asks for offers and claims one only where it would act. */
import { describe, expect, it } from 'vitest';
import { firstClaimed, newestFirst, NO_ORIGIN, type EventCause, type TwistOffer } from '../../src/webhooks/twists.js';

const BY_KEY: EventCause = { apiKeyId: 'key_a', operationId: 'crawlSite' };

function offer(takes: (origin: EventCause) => boolean, acts = true): TwistOffer & { claims: number } {
  const made = {
    claims: 0,
    takes,
    claim: () => {
      made.claims += 1;
      return acts;
    },
  };
  return made;
}

describe('webhook twists are a query the hub makes', () => {
  it('contract §4.3: an offer that does not take the event is never claimed, so its chance is not drawn', () => {
    const narrow = offer((origin) => origin.apiKeyId === 'key_a');
    expect(firstClaimed([narrow], NO_ORIGIN)).toBe(false);
    expect(narrow.claims).toBe(0);
    expect(firstClaimed([narrow], BY_KEY)).toBe(true);
    expect(narrow.claims).toBe(1);
  });

  it('contract §4.3: the first offer that acts ends the search; one whose draw declines passes to the next', () => {
    const declines = offer(() => true, false);
    const acts = offer(() => true);
    const older = offer(() => true);
    expect(firstClaimed([declines, acts, older], BY_KEY)).toBe(true);
    expect([declines.claims, acts.claims, older.claims]).toEqual([1, 1, 0]);
  });

  it('contract §4.3: newest_first reorders only the deliveries an offer takes, in the places they held, and needs two of them', () => {
    const due = [
      { seq: 1, origin: BY_KEY },
      { seq: 2, origin: NO_ORIGIN },
      { seq: 3, origin: BY_KEY },
    ];
    const mine = offer((origin) => origin.apiKeyId === 'key_a');
    expect(newestFirst(due, [mine]).map((d) => d.seq)).toEqual([3, 2, 1]);
    const lonely = offer((origin) => origin.apiKeyId === null);
    expect(newestFirst(due, [lonely]).map((d) => d.seq)).toEqual([1, 2, 3]);
    expect(lonely.claims).toBe(0);
  });
});
