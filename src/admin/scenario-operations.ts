/** Contract §3.5: `/__admin/scenarios`, listing, activating and deactivating scenarios. */
import { ApiError, resourceMissing, validationFailed } from '../errors/api-error.js';
import type { JsonSchema } from '../operations/types.js';
import { ScenarioActivationError } from '../scenarios/engine.js';
import type { AvailableScenario } from './api-types.js';
import { activeScenarioSchema, deactivatedScenarioSchema, deletedCountSchema, scenarioListsSchema } from './answer-schemas.js';
import { adminOperation } from './route-kit.js';

const nullableId: JsonSchema = { type: ['string', 'null'], minLength: 1 };

const activateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    account_id: nullableId,
    api_key_id: nullableId,
    operation_id: nullableId,
    times: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000_000 },
    probability: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    params: { type: 'object' },
  },
};

/** 404 for a scope naming an account or key that does not exist (spec §7.3.1's habit), else 422. */
function activationRefusal(error: ScenarioActivationError): ApiError {
  const [field, messages] = Object.entries(error.errors)[0] ?? ['name', []];
  if (error.missing) return new ApiError('resource_missing', { param: field, message: messages[0] ?? error.message });
  return validationFailed(error.errors);
}

const activeAnswer = { status: 200, description: 'The activation.', schema: activeScenarioSchema } as const;

export const SCENARIO_OPERATIONS = [
  adminOperation({
    route: 'GET /scenarios',
    summary: 'The scenarios available and active',
    client: ['admin.scenarios.list()'],
    answer: { status: 200, description: '`{"available", "active"}`', schema: scenarioListsSchema },
    errors: [],
    handler: (ctx) => ({
      // Each file's declared params are JSON Schemas (objects), which the engine's listing types loosely.
      available: ctx.sandbox.world.scenarios.available() as AvailableScenario[],
      active: ctx.sandbox.world.scenarios.list(),
    }),
  }),
  adminOperation({
    route: 'POST /scenarios',
    summary: 'Activate a scenario',
    description:
      'Scope narrows to one account, one key and/or one operation; `times` ends it after that many matching requests (or jobs). An unknown name or bad params is 422, an unknown account or key 404.',
    client: ['admin.scenarios.activate()'],
    body: activateSchema,
    answer: { status: 201, description: 'The activation.', schema: activeScenarioSchema },
    errors: [404, 422],
    handler: (ctx, request) => {
      const input = request.body();
      try {
        return ctx.sandbox.world.scenarios.activate(input);
      } catch (error) {
        if (error instanceof ScenarioActivationError) throw activationRefusal(error);
        throw error;
      }
    },
  }),
  adminOperation({
    route: 'GET /scenarios/{id}',
    summary: 'An active scenario',
    description: 'With `remaining`.',
    client: ['admin.scenarios.get(id)'],
    answer: activeAnswer,
    errors: [404],
    handler: (ctx, request) => {
      const { id } = request.params;
      const active = ctx.sandbox.world.scenarios.get(id);
      if (!active) throw resourceMissing('active scenario', id, 'id');
      return active;
    },
  }),
  adminOperation({
    route: 'DELETE /scenarios/{id}',
    summary: 'Deactivate a scenario',
    client: ['admin.scenarios.deactivate(id)'],
    answer: { status: 200, description: 'The activation, with `"deleted": true`.', schema: deactivatedScenarioSchema },
    errors: [404],
    handler: (ctx, request) => {
      const { id } = request.params;
      const removed = ctx.sandbox.world.scenarios.deactivate(id);
      if (!removed) throw resourceMissing('active scenario', id, 'id');
      return { ...removed, deleted: true as const };
    },
  }),
  adminOperation({
    route: 'DELETE /scenarios',
    summary: 'Deactivate every scenario',
    client: ['admin.scenarios.clear()'],
    answer: { status: 200, description: 'How many were deactivated.', schema: deletedCountSchema },
    errors: [],
    handler: (ctx) => ({ deleted: ctx.sandbox.world.scenarios.clear() }),
  }),
];
