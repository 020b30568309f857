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
import { SerializedObject, type RecordedEvents } from '../webhooks/hub.js';
import type { SandboxContext } from './context.js';
import { requestTime } from './identify-caller.js';

/** The sink `dispatch` hands the handler: events stamped on the caller's clock, serialized as they are now. */
export class RequestEvents implements EventSink {
  constructor(private readonly ctx: SandboxContext) {}

  /**
   * Serialized only when an endpoint of the account takes `type` now: an event nobody subscribed to is
   * never built (a megabyte of inbox metadata was copied for every update, subscribed or not). The
   * subscriptions of the instant the state changed decide, as the event is stamped with that instant.
   */
  emit(type: EventType, object: unknown): void {
    const { world, store } = this.ctx.state;
    if (!store || !world.webhooks.takes(store.id, type)) return;
    // Serialized now, the snapshot of this instant: the payload is made from this text (no copy of the object).
    this.recorded().events.push({ type, object: new SerializedObject(JSON.stringify(object)), at: requestTime(this.ctx).clock.now() });
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
