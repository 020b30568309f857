/**
 * Webhook events caused by a /v1 request (contract §4.3): the handler records them where the state
 * changes (`events.emit`, `events.watchJob`, given to it by `dispatch`), and they are published to
 * the world the request captured once the answer has left: when the response closes (finished, or
 * its connection cut after the operation ran, as a `when: after` fault does). A listener is added
 * only by a request that records something, so the other requests pay nothing for webhooks.
 * Published into a world since replaced, or for an account reset or deleted meanwhile, they vanish.
 */
import type { EventSink } from '../operations/types.js';
import type { RecordedEvents } from '../webhooks/hub.js';
import type { SandboxContext } from './context.js';
import { requestTime } from './identify-caller.js';

function recorded(ctx: SandboxContext): RecordedEvents {
  let events = ctx.state.events;
  if (!events) {
    events = ctx.state.events = { events: [], jobs: [] };
    const { world, store } = ctx.state;
    ctx.res.once('close', () => {
      if (store) world.webhooks.publish(store, events!);
    });
  }
  return events;
}

/** The sink `dispatch` hands the handler: events stamped on the caller's clock, copied as they are now. */
export function eventSink(ctx: SandboxContext): EventSink {
  return {
    emit(type, object) {
      recorded(ctx).events.push({ type, object: structuredClone(object), at: requestTime(ctx).clock.now() });
    },
    watchJob(job) {
      recorded(ctx).jobs.push(job);
    },
  };
}
