/** Contract §3.5: `/__admin/scenarios`, listing, activating and deactivating scenarios. */
import { ApiError, resourceMissing, validationFailed } from '../errors/api-error.js';
import type { JsonSchema } from '../operations/types.js';
import { ScenarioActivationError, type ActivationInput } from '../scenarios/engine.js';
import { bodyOf, pathParam, type AdminRoute } from './route-kit.js';

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

export function registerScenarioRoutes(route: AdminRoute): void {
  route('get', '/scenarios', (ctx) => {
    ctx.body = { available: ctx.sandbox.world.scenarios.available(), active: ctx.sandbox.world.scenarios.list() };
  });

  route('post', '/scenarios', { body: activateSchema }, (ctx) => {
    const input = bodyOf<ActivationInput>(ctx, activateSchema);
    try {
      ctx.body = ctx.sandbox.world.scenarios.activate(input);
    } catch (error) {
      if (error instanceof ScenarioActivationError) throw activationRefusal(error);
      throw error;
    }
    ctx.status = 201;
  });

  route('get', '/scenarios/:id', (ctx) => {
    const id = pathParam(ctx, 'id');
    const active = ctx.sandbox.world.scenarios.get(id);
    if (!active) throw resourceMissing('active scenario', id, 'id');
    ctx.body = active;
  });

  route('delete', '/scenarios/:id', (ctx) => {
    const id = pathParam(ctx, 'id');
    const removed = ctx.sandbox.world.scenarios.deactivate(id);
    if (!removed) throw resourceMissing('active scenario', id, 'id');
    ctx.body = { ...removed, deleted: true };
  });

  route('delete', '/scenarios', (ctx) => {
    ctx.body = { deleted: ctx.sandbox.world.scenarios.clear() };
  });
}
