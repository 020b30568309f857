/** What the webhook tests share: an in-process sandbox on a frozen clock, an endpoint, and the admin calls they make. */
import { afterEach } from 'vitest';
import type { CreateAppOptions } from '../../src/app.js';
import { ACCOUNTS, KEYS, bearer, client, makeApp } from '../support/harness.js';
import { startReceiver, type Answer, type Receiver } from '../support/receiver.js';

export { ACCOUNTS, KEYS, bearer };

/** Receivers started through the returned function are closed after each test of the file. */
export function useReceivers(): (answer?: (n: number) => Answer) => Promise<Receiver> {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((r) => r.close()));
  });
  return async (answer) => {
    const receiver = await startReceiver(answer);
    started.push(receiver);
    return receiver;
  };
}

export function sandbox(options: CreateAppOptions = {}) {
  const app = makeApp(options);
  const api = client(app);
  return {
    app,
    api,
    async endpoint(url: string, extra: Record<string, unknown> = {}, accountId: string = ACCOUNTS.free) {
      const res = await api.post('/__admin/webhook_endpoints').send({ account_id: accountId, url, ...extra });
      if (res.status !== 201) throw new Error(`endpoint refused: ${JSON.stringify(res.body)}`);
      return res.body as { id: string; secret: string; events: string[] };
    },
    trigger: (type: string, accountId: string = ACCOUNTS.free) => api.post('/__admin/events').send({ account_id: accountId, type }),
    /** Triggers an event and waits until its first attempt is recorded (the receiver got it, the log shows it). */
    async deliverOnce(receiver: Receiver, type = 'inbox.updated', accountId: string = ACCOUNTS.free) {
      const expected = receiver.arrivals.length + 1;
      const event = (await this.trigger(type, accountId)).body as { id: string };
      await receiver.received(expected);
      await this.advance(0);
      return event;
    },
    /** Moves the sandbox clock; answers once every delivery due by then has been attempted. */
    advance: (seconds: number) => api.post('/__admin/clock/advance').send({ seconds }),
    deliveries: async (query: Record<string, string | number> = {}) =>
      (await api.get('/__admin/webhook_deliveries').query(query)).body.data as Array<{
        id: string;
        status: string;
        endpoint_id: string;
        event: { id: string; type: string };
        attempts: Array<{ at: string; status_code: number | null; error: string | null }>;
        next_attempt_at: string | null;
      }>,
  };
}
