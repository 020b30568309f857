/**
 * Webhook events caused by a /v1 request (contract §4.3): the handler records them where the state
 * changes (`events.emit`, `events.watchJob`, given to it by `dispatch`), and they are published to
 * the world the request captured once the answer has left: when the response closes (finished, or
 * its connection cut after the operation ran, as a `when: after` fault does), or at once after the
 * operation's turn when the client had left before it ran. A listener is added
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
  /**
   * Events of a request with a large body whose object is not serialized yet, in the order recorded:
   * the answer of such a request is `JSON.stringify` of its view (`answered`), and an event whose
   * object is that very view takes that text instead of a second megabyte of the same JSON.
   */
  private waiting: Array<{ type: EventType; object: unknown; at: number }> | undefined;

  constructor(
    private readonly ctx: SandboxContext,
    /** Whether the request has a large body: its events' objects wait for its answer's text. */
    readonly deferred = false,
  ) {}

  /**
   * Serialized only when an endpoint of the account takes `type` now: an event nobody subscribed to is
   * never built (a megabyte of inbox metadata was copied for every update, subscribed or not). The
   * subscriptions of the instant the state changed decide, as the event is stamped with that instant.
   */
  emit(type: EventType, object: unknown): void {
    const { world, store } = this.ctx.state;
    if (!store || !world.webhooks.takes(store.id, type)) return;
    const at = requestTime(this.ctx).clock.now();
    const recorded = this.recorded();
    // Deferred (a large body): serialized from the answer's text or after the answer, never here,
    // in the operation's turn. The views a handler answers and emits are its own objects that
    // nothing changes afterwards (see `dispatch`), so later text is the text of this instant.
    if (this.deferred) (this.waiting ??= []).push({ type, object, at });
    // Serialized now, the snapshot of this instant: the payload is made from this text (no copy of the object).
    else recorded.events.push({ type, object: new SerializedObject(JSON.stringify(object)), at });
  }

  /**
   * The answer's `body` was written as `text` (exactly `JSON.stringify(body)`): each waiting event
   * whose object is `body` takes `text`, the others are serialized when published, a turn later.
   */
  answered(body: unknown, text: string): void {
    for (const event of this.waiting ?? []) if (event.object === body) event.object = new SerializedObject(text);
  }

  /** The waiting events into the recorded ones, in order, each object serialized unless it already was. */
  private settle(events: RecordedEvents): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    for (const { type, object, at } of waiting) {
      events.events.push({ type, object: object instanceof SerializedObject ? object : new SerializedObject(JSON.stringify(object)), at });
    }
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
    const publish = (): void => {
      this.settle(events);
      if (store) world.webhooks.publish(store, events);
    };
    // A client that left while its request waited for a turn (the large-body lane, a derivation in
    // slices) closed the response before the operation recorded anything: no 'close' is left to
    // come, and the operation ran all the same. Its events leave once this turn of it is over.
    if (this.ctx.res.closed) setImmediate(publish);
    else this.ctx.res.once('close', publish);
    return events;
  }
}
