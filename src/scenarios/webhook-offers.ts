/**
 * The scenarios' answer to the webhook hub's query (src/webhooks/twists.ts, contract §4.3 "scoped
 * like any other"): the live activations scoped to the account or to no one with a rule of that
 * `webhook` part, newest first. Each takes the events its key and operation scope and its rules'
 * `match` take (over what caused an event); the hub claims an offer only where it would act, so no
 * chance is drawn otherwise, and a claim draws the chance and, when it acts, counts its `times`
 * (once per event, or batch).
 */
import type { OperationDef } from '../operations/types.js';
import type { EventCause, TwistOffer, WebhookTwist } from '../webhooks/twists.js';
import { ruleMatches, type Activation } from './activation.js';
import type { ActivationCounter } from './request-plan.js';

export function webhookOffers(
  active: Iterable<Activation>,
  accountId: string,
  twist: WebhookTwist,
  operations: ReadonlyMap<string, OperationDef>,
  counter: ActivationCounter,
): TwistOffer[] {
  const offers: TwistOffer[] = [];
  for (const activation of active) {
    if (activation.scope.accountId !== null && activation.scope.accountId !== accountId) continue;
    if (!activation.rules.some((rule) => rule.effect.webhook === twist)) continue;
    offers.push({
      takes: webhookTakes(activation, twist, operations),
      claim: () => {
        if (!counter.chance(activation, accountId)) return false;
        counter.consume(activation);
        return true;
      },
    });
  }
  return offers.reverse();
}

/** The events an activation's `twist` takes: of its key and operation, and of a rule of that part whose `match` takes their operation. */
function webhookTakes(activation: Activation, twist: WebhookTwist, operations: ReadonlyMap<string, OperationDef>) {
  const { apiKeyId, operationId } = activation.scope;
  const rules = activation.rules.filter((rule) => rule.effect.webhook === twist);
  return (origin: EventCause): boolean => {
    if (apiKeyId !== null && origin.apiKeyId !== apiKeyId) return false;
    if (operationId !== null && origin.operationId !== operationId) return false;
    const operation = origin.operationId === null ? undefined : operations.get(origin.operationId);
    // A rule without `match` takes every event; one with it, only events an operation it matches caused.
    return rules.some((rule) => (!rule.operations && !rule.methods) || (operation !== undefined && ruleMatches(rule, operation)));
  };
}
