/**
 * What the sandbox may do wrong, on purpose, to an account's webhooks (contract §4.3), and how the
 * hub asks for it: a query. The hub asks the scenarios which twists of a kind are on offer for the
 * account, newest first (`TwistQuery`); each offer says which events it takes and, when the hub finds
 * it would act, is claimed (its chance drawn, its `times` counted). The scenarios never call the hub.
 *
 *   duplicate      every delivery is sent twice (two deliveries, one `webhook-id`)
 *   newest_first   deliveries due together are sent newest event first
 *   wrong_secret   signed with a secret that is not the endpoint's
 */
export const WEBHOOK_TWISTS = ['duplicate', 'newest_first', 'wrong_secret'] as const;
export type WebhookTwist = (typeof WEBHOOK_TWISTS)[number];

/** What caused a webhook event: the key and operation of its request (none: `POST /__admin/events`). */
export interface EventCause {
  readonly apiKeyId: string | null;
  readonly operationId: string | null;
}

/**
 * The cause of an event nobody's request made (`POST /__admin/events`). Otherwise an event's cause
 * is the key and operation of its request (a job's events: the request that created the job); a
 * webhook scenario narrowed to a key or an operation, or whose rules `match` operations, acts on
 * the events they caused, as other scenarios act on their requests.
 */
export const NO_ORIGIN: EventCause = Object.freeze({ apiKeyId: null, operationId: null });

/** One active scenario's offer of a twist for an account's webhooks. */
export interface TwistOffer {
  /** Whether it takes an event of this cause (its key and operation scope, its rules' `match`). */
  takes(origin: EventCause): boolean;
  /** Asked only where it would act: draws its chance and, when it acts, counts its `times`. True when it acts. */
  claim(): boolean;
}

/** The offers of `twist` for the account's webhooks now, newest activation first. */
export type TwistQuery = (accountId: string, twist: WebhookTwist) => readonly TwistOffer[];

/** The first offer taking an event of `origin` that acts on it (claimed), if any. */
export function firstClaimed(offers: readonly TwistOffer[], origin: EventCause): boolean {
  for (const offer of offers) if (offer.takes(origin) && offer.claim()) return true;
  return false;
}

/**
 * `webhooks-out-of-order`: each activation sends the deliveries due together that it takes (all of
 * them, unless its scope or its rules narrow it) newest first, in the places they held; the others
 * keep theirs. An activation acts only where it takes two or more not taken by a newer one.
 */
export function newestFirst<D extends { readonly seq: number; readonly origin: EventCause }>(
  due: readonly D[],
  offers: readonly TwistOffer[],
): D[] {
  const result = [...due];
  const taken = new Set<D>();
  for (const offer of offers) {
    const mine = due.filter((delivery) => !taken.has(delivery) && offer.takes(delivery.origin));
    if (mine.length < 2 || !offer.claim()) continue;
    const places = mine.map((delivery) => due.indexOf(delivery));
    const newest = [...mine].sort((a, b) => b.seq - a.seq);
    places.forEach((place, i) => (result[place] = newest[i]!));
    for (const delivery of mine) taken.add(delivery);
  }
  return result;
}
