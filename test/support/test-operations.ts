/**
 * Operations that exist only in tests, run through the same pipeline as every real one
 * (`createAppWithOperations`): a create whose handler can be held at a gate, made to fail with a
 * 500, or made to refuse with a 404 or 422 of its own; a delete; a read. They let the protocol tests
 * reach states no real operation reaches on demand (a request still running, a first attempt that
 * crashed).
 */
import { createAppWithOperations, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { ApiError, resourceMissing, validationFailed } from '../../src/errors/api-error.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { defineOperation, type OperationDef } from '../../src/operations/types.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { FROZEN_AT } from './harness.js';

export interface Widget {
  id: string;
  object: 'widget';
  name: string;
}

export interface WidgetControls {
  /** How many times the create handler ran. */
  calls: number;
  /** While set, the create handler waits for it before answering. */
  gate: Promise<void> | undefined;
  /** The next this-many creates fail with a 500. */
  failNext: number;
  /** How they fail: an unexpected exception, or a deliberate ApiError('internal_error') (as the server-error scenario). */
  failWith: 'exception' | 'api_error';
  widgets: Map<string, Widget>;
}

const widgetSchema = {
  type: 'object',
  required: ['id', 'object', 'name'],
  properties: { id: { type: 'string' }, object: { const: 'widget' }, name: { type: 'string' } },
};

export function widgetOperations(controls: WidgetControls): OperationDef[] {
  let next = 0;
  const createWidget = defineOperation<{ name: string; ref?: string }>({
    operationId: 'testCreateWidget',
    method: 'POST',
    path: '/test/widgets',
    tag: 'Test',
    specSection: '8',
    summary: 'Create a widget (tests only)',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 }, ref: { type: 'string' } },
    },
    success: { status: 201, description: 'The widget.', schema: widgetSchema },
    errors: [400, 401, 404, 422, 500],
    async handler({ body }) {
      controls.calls += 1;
      if (controls.gate) await controls.gate;
      if (controls.failNext > 0) {
        controls.failNext -= 1;
        if (controls.failWith === 'api_error') throw new ApiError('internal_error', { message: MESSAGES.internal });
        throw new Error('the widget factory is on fire');
      }
      if (body.ref !== undefined && body.ref !== 'ok') throw resourceMissing('reference', body.ref, 'ref');
      if (body.name === 'forbidden-by-rule') throw validationFailed({ name: ['is reserved'] });
      next += 1;
      const widget: Widget = { id: `wid_${next}`, object: 'widget', name: body.name };
      controls.widgets.set(widget.id, widget);
      return { body: widget };
    },
  });
  const deleteWidget = defineOperation<undefined, Record<string, never>, { id: string }>({
    operationId: 'testDeleteWidget',
    method: 'DELETE',
    path: '/test/widgets/{id}',
    tag: 'Test',
    specSection: '8',
    summary: 'Delete a widget (tests only)',
    params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
    success: { status: 200, description: 'Deleted.', schema: { type: 'object' } },
    errors: [401, 404],
    handler({ params }) {
      if (!controls.widgets.delete(params.id)) throw resourceMissing('widget', params.id, 'id');
      return { body: { id: params.id, object: 'widget', deleted: true } };
    },
  });
  const listWidgets = defineOperation({
    operationId: 'testListWidgets',
    method: 'GET',
    path: '/test/widgets',
    tag: 'Test',
    specSection: '8',
    summary: 'List widgets (tests only)',
    success: { status: 200, description: 'All widgets.', schema: { type: 'object' } },
    errors: [401],
    handler() {
      return { body: { object: 'list', data: [...controls.widgets.values()], has_more: false, url: '/v1/test/widgets' } };
    },
  });
  return [createWidget, deleteWidget, listWidgets];
}

/** The real operations plus the widget ones, on a frozen clock. */
export function makeWidgetApp(options: CreateAppOptions = {}): { app: MockApp; controls: WidgetControls } {
  const controls: WidgetControls = { calls: 0, gate: undefined, failNext: 0, failWith: 'exception', widgets: new Map() };
  const app = createAppWithOperations({ clock: FROZEN_AT, ...options }, [...OPERATIONS, ...widgetOperations(controls)]);
  return { app, controls };
}
