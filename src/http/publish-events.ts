/**
 * Webhook events caused by a /v1 request (contract §4.3): the handler records them where the state
 * changes (`events.emit`, `events.watchJob`, given to it by `dispatch`), and they are published to
 * the world the request captured once the answer has left: when the response closes (finished, or
 * its connection cut after the operation ran, as a `when: after` fault does). A listener is added
 * only by a request that records something, so the other requests pay one small object for webhooks.
 * Published into a world since replaced, or for an account reset or deleted meanwhile, they vanish.
 */
import type { EventType } from '../operations/event-types.js';
import type { EventSink } from '../operations/types.js';
import type { JobRecord } from '../store/records.js';
import type { RecordedEvents } from '../webhooks/hub.js';
import type { SandboxContext } from './context.js';
import { requestTime } from './identify-caller.js';

/** The sink `dispatch` hands the handler: events stamped on the caller's clock, copied as they are now. */
export class RequestEvents implements EventSink {
  constructor(private readonly ctx: SandboxContext) {}

  emit(type: EventType, object: unknown): void {
    this.recorded().events.push({ type, object: structuredClone(object), at: requestTime(this.ctx).clock.now() });
  }

  watchJob(job: JobRecord): void {
    this.recorded().jobs.push(job);
  }

  private recorded(): RecordedEvents {
    const { state } = this.ctx;
    if (state.events) return state.events;
    // What caused them: a webhook scenario narrowed to a key or an operation acts on these events.
    const origin = { apiKeyId: state.apiKey?.id ?? null, operationId: state.operation?.operationId ?? null };
    const events: RecordedEvents = (state.events = { events: [], jobs: [], origin });
    const { world, store } = state;
    this.ctx.res.once('close', () => {
      if (store) world.webhooks.publish(store, events);
    });
    return events;
  }
}
