/**
 * The `webhook` part of a scenario effect (contract §4.3): what the sandbox does wrong, on purpose,
 * to the webhooks of the accounts in the activation's scope, so a receiver's defences are tested.
 * The twists themselves are the hub's vocabulary (src/webhooks/twists.ts):
 *
 *   { "webhook": "duplicate" }      every delivery is sent twice (two deliveries, one `webhook-id`)
 *   { "webhook": "newest_first" }   deliveries due together are sent newest event first
 *   { "webhook": "wrong_secret" }   signed with a secret that is not the endpoint's
 *
 * A webhook is not a request, but it has a cause: the key and operation of the request behind its
 * event (`EventCause`). The activation's account, key and operation scope and the rule's `match`
 * apply to that (src/scenarios/webhook-offers.ts). `times` counts events (for `newest_first`,
 * batches sent out of order).
 */
import { WEBHOOK_TWISTS } from '../webhooks/twists.js';
import type { Shape } from './shape.js';

export const WEBHOOK_SHAPE: Shape = { kind: 'enum', values: WEBHOOK_TWISTS };
