/**
 * Contract §4.3: a job's event is raised when its account's clock reaches the job's end, once the
 * answer of the request that created it has been published; jobs ending at the same instant are
 * announced in the order their answers were published (not the order they were created), and a job
 * settled by a read before its answer was published is still announced. This records the whole
 * race-y sequence (event ids, their order, deliveries, job views, credits, clocks until idle) as one
 * transcript: the same seed and the same steps give the same bytes.
 *
 * The crawl requests are played in process (the real handler, its request's job factory, and the
 * publish its answer would make), so the test decides when each answer is published.
 */
import { describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { jobFactory } from '../../src/jobs/create.js';
import type { EventType } from '../../src/operations/event-types.js';
import { crawlSite } from '../../src/resources/web/operations.js';
import type { JobRecord } from '../../src/store/records.js';
import { ACCOUNTS, bearer, client, KEYS, makeApp } from '../support/harness.js';
import { useReceivers } from './support.js';

const receiver = useReceivers();

/** A crawl whose answer has not been published yet: `publish()` does what closing its response would. */
interface InFlight {
  id: string;
  publish(): void;
}

async function crawlInFlight(app: MockApp, accountId: string, maxPages: number, url = 'https://example.com/'): Promise<InFlight> {
  const { world } = app.sandbox;
  const store = world.store.forAccount(accountId)!;
  const apiKey = store.collection('api_keys').values()[0]!;
  const services = world.timeOf(accountId).services;
  const watched: JobRecord[] = [];
  const events = {
    emit(type: EventType) {
      throw new Error(`a crawl emits no ${type} of its own`);
    },
    watchJob: (job: JobRecord) => watched.push(job),
  };
  // The handler plans the crawl over a few turns (a promise), then creates the job.
  const result = (await crawlSite.handler({
    store,
    apiKey,
    body: { url, max_pages: maxPages, max_depth: 2 },
    query: {},
    params: {},
    sandbox: services,
    path: '/v1/web/crawl',
    jobs: jobFactory(services),
    events,
  })) as { body: { id: string } };
  return {
    id: result.body.id,
    publish: () => world.webhooks.publish(store, { events: [], jobs: watched, origin: { apiKeyId: apiKey.id, operationId: 'crawlSite' } }),
  };
}

describe('contract §4.3: job events in end order, then publish order', () => {
  it('§4.3: equal ends, reads before the answer, a clock advance and a reset give the same events in the same order', async () => {
    const hooks = await receiver();
    const app = makeApp();
    const api = client(app);
    const transcript: unknown[] = [];
    const note = (label: string, value: unknown) => transcript.push([label, value]);
    expect((await api.post('/__admin/webhook_endpoints').send({ account_id: ACCOUNTS.paid, url: hooks.url })).status).toBe(201);

    const deliveries = async () =>
      ((await api.get('/__admin/webhook_deliveries').query({ account_id: ACCOUNTS.paid })).body.data as any[])
        .map((d) => [d.id, d.event.id, d.event.type, d.event.created_at, d.event.data.object.id, d.status])
        .reverse();
    const credits = async () => (await api.get(`/__admin/accounts/${ACCOUNTS.paid}`)).body.state.credits;
    const read = async (id: string) => {
      const job = (await api.get(`/v1/jobs/${id}`).set(bearer(KEYS.paid))).body;
      return [job.id, job.status, job.progress, job.credits_used, job.completed_at];
    };

    // Created A, B, D (equal ends), then C (later end); answers published B, C first.
    const a = await crawlInFlight(app, ACCOUNTS.paid, 4);
    const b = await crawlInFlight(app, ACCOUNTS.paid, 4);
    const d = await crawlInFlight(app, ACCOUNTS.paid, 4);
    const c = await crawlInFlight(app, ACCOUNTS.paid, 9);
    b.publish();
    c.publish();
    note('created', [a.id, b.id, d.id, c.id]);

    // To the equal end: only B is announced (A and D are still in flight).
    note('advance', (await api.post('/__admin/clock/advance').send({ seconds: 2 })).body);
    note('deliveries after the equal end', await deliveries());

    // D is read (settled and charged) before its answer; a crawl's credit check settles A.
    note('read D', await read(d.id));
    const e = await crawlInFlight(app, ACCOUNTS.paid, 2);
    note('credits before the answers', await credits());
    // Answers D, then A, then E: D and A tie at their end, announced in publish order.
    d.publish();
    a.publish();
    e.publish();
    note('advance 0', (await api.post('/__admin/clock/advance').send({ seconds: 0 })).body);
    note('deliveries after the late answers', await deliveries());

    // Two more equal ends; one answer before the reset, one after it (dropped with the old state).
    const f = await crawlInFlight(app, ACCOUNTS.paid, 3);
    const g = await crawlInFlight(app, ACCOUNTS.paid, 3);
    f.publish();
    note('until idle', (await api.post('/__admin/clock/advance').send({ until: 'idle' })).body);

    // Equal ends again, all answered: the clock passes their end with no clock call (as a running
    // clock does between timer ticks), and a read settles the middle one before the hub announces it.
    const x = await crawlInFlight(app, ACCOUNTS.paid, 2);
    const y = await crawlInFlight(app, ACCOUNTS.paid, 2);
    const z = await crawlInFlight(app, ACCOUNTS.paid, 2);
    z.publish();
    x.publish();
    y.publish();
    await api.post('/__admin/clock/advance').send({ seconds: 0 });
    app.sandbox.world.clock.advance(3);
    note('read X before its event', await read(x.id));
    note('next due', app.sandbox.world.webhooks.nextDueOf(ACCOUNTS.paid));
    note('advance 0 after the read', (await api.post('/__admin/clock/advance').send({ seconds: 0 })).body);
    note('deliveries after the read', await deliveries());
    const h = await crawlInFlight(app, ACCOUNTS.paid, 5);
    const i = await crawlInFlight(app, ACCOUNTS.paid, 5);
    i.publish();
    note('reset', (await api.post(`/__admin/accounts/${ACCOUNTS.paid}/reset`)).status);
    h.publish();
    g.publish();
    note('until idle after reset', (await api.post('/__admin/clock/advance').send({ until: 'idle' })).body);
    const j = await crawlInFlight(app, ACCOUNTS.paid, 2);
    const k = await crawlInFlight(app, ACCOUNTS.paid, 2);
    k.publish();
    j.publish();
    note('until idle at the end', (await api.post('/__admin/clock/advance').send({ until: 'idle' })).body);
    note('deliveries at the end', await deliveries());
    note('jobs at the end', [await read(j.id), await read(k.id)]);
    note('credits at the end', await credits());
    note(
      'arrivals',
      hooks.arrivals.map((arrival) => [arrival.json.id, arrival.json.type, arrival.json.data.object.id]),
    );

    expect(transcript).toEqual(EXPECTED);
  });
});

/** Recorded once from the sandbox as it was; any change to it is a change of behaviour. */
const EXPECTED: unknown[] = [
  [
    'created',
    ['job_EAV0LDk5X3vZ6uRMY288WzjV', 'job_Yr7WvYds1wvQaPdwUJlUDYzk', 'job_hTN4zxjhuetv6KDnViB1J9Hq', 'job_VfENEKyyJQRKvZu7DUFkHMJ2'],
  ],
  ['advance', { now: '2026-01-15T12:00:02.000Z', mode: 'frozen' }],
  [
    'deliveries after the equal end',
    [
      [
        'whd_99k3LbS02w2J9toQaRqIrwtE',
        'evt_OCJoMR7iQIVlO5H0PXrqC2iu',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_Yr7WvYds1wvQaPdwUJlUDYzk',
        'succeeded',
      ],
    ],
  ],
  ['read D', ['job_hTN4zxjhuetv6KDnViB1J9Hq', 'completed', 100, 4, '2026-01-15T12:00:02Z']],
  ['credits before the answers', { balance: 99988, used: 12 }],
  ['advance 0', { now: '2026-01-15T12:00:02.000Z', mode: 'frozen' }],
  [
    'deliveries after the late answers',
    [
      [
        'whd_99k3LbS02w2J9toQaRqIrwtE',
        'evt_OCJoMR7iQIVlO5H0PXrqC2iu',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_Yr7WvYds1wvQaPdwUJlUDYzk',
        'succeeded',
      ],
      [
        'whd_wBZNr9tUF8zDPRp6NuRZhkSe',
        'evt_QyCzI9DbLU9TiDp2TLBONRM9',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_hTN4zxjhuetv6KDnViB1J9Hq',
        'succeeded',
      ],
      [
        'whd_JsCAoQuSAf4W6LR0wu0lbiDO',
        'evt_Vc3WDHgTVDZQRMc0x4SJj446',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_EAV0LDk5X3vZ6uRMY288WzjV',
        'succeeded',
      ],
    ],
  ],
  ['until idle', { now: '2026-01-15T12:00:03.750Z', mode: 'frozen', advanced_seconds: 1.75 }],
  ['read X before its event', ['job_CVkUrNDX6mxPexluNvsACwbW', 'completed', 100, 2, '2026-01-15T12:00:05Z']],
  ['next due', 1768478405250],
  ['advance 0 after the read', { now: '2026-01-15T12:00:06.750Z', mode: 'frozen' }],
  [
    'deliveries after the read',
    [
      [
        'whd_99k3LbS02w2J9toQaRqIrwtE',
        'evt_OCJoMR7iQIVlO5H0PXrqC2iu',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_Yr7WvYds1wvQaPdwUJlUDYzk',
        'succeeded',
      ],
      [
        'whd_wBZNr9tUF8zDPRp6NuRZhkSe',
        'evt_QyCzI9DbLU9TiDp2TLBONRM9',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_hTN4zxjhuetv6KDnViB1J9Hq',
        'succeeded',
      ],
      [
        'whd_JsCAoQuSAf4W6LR0wu0lbiDO',
        'evt_Vc3WDHgTVDZQRMc0x4SJj446',
        'job.completed',
        '2026-01-15T12:00:02Z',
        'job_EAV0LDk5X3vZ6uRMY288WzjV',
        'succeeded',
      ],
      [
        'whd_t8wh8teU97cQs4gVLR8C0JYf',
        'evt_2oOtQr9F4MWAb6CdQhgq60NK',
        'job.completed',
        '2026-01-15T12:00:03Z',
        'job_VfENEKyyJQRKvZu7DUFkHMJ2',
        'succeeded',
      ],
      [
        'whd_kk7swZMZFXy6ygT0FIc17F8t',
        'evt_iBkQjwSPnogpwUuur7xG9dqg',
        'job.completed',
        '2026-01-15T12:00:03Z',
        'job_A3waceBS437bfHzbaMsru6P9',
        'succeeded',
      ],
      [
        'whd_TKZQIRI0qtSQRCILfREJ2Oqm',
        'evt_vQv1hu9VZP1GAblAAMag6z44',
        'job.completed',
        '2026-01-15T12:00:03Z',
        'job_V5puU6cFvWSQdjurWMLq0aZF',
        'succeeded',
      ],
      [
        'whd_NRNLPWuw1QL4FeLEv7OAUzOO',
        'evt_TrBXlw7HFEXfpxDv5iJKjSxo',
        'job.completed',
        '2026-01-15T12:00:05Z',
        'job_2EtPnXLjTFXi65TGXqEHNN1k',
        'succeeded',
      ],
      [
        'whd_FWDFvk3V6hw3X1KRfUvglTaF',
        'evt_rjq05zeLBqWei7ePY3tu8WX7',
        'job.completed',
        '2026-01-15T12:00:05Z',
        'job_CVkUrNDX6mxPexluNvsACwbW',
        'succeeded',
      ],
      [
        'whd_GvIvP3SjuweIoGkt8phNRHim',
        'evt_hDVgm2V13f7tnd9G62n3Q8IT',
        'job.completed',
        '2026-01-15T12:00:05Z',
        'job_rfLL50WM26ODlWtTKidh0d3U',
        'succeeded',
      ],
    ],
  ],
  ['reset', 200],
  ['until idle after reset', { now: '2026-01-15T12:00:06.750Z', mode: 'frozen', advanced_seconds: 0 }],
  ['until idle at the end', { now: '2026-01-15T12:00:08.250Z', mode: 'frozen', advanced_seconds: 1.5 }],
  [
    'deliveries at the end',
    [
      [
        'whd_ZzDPpaCNqetpbcbOHNzFidrr',
        'evt_eaL6jkrrE9LEuwb81OFh9bFj',
        'job.completed',
        '2026-01-15T12:00:08Z',
        'job_qNhKMQKrNa7minCeLPvMLpQP',
        'succeeded',
      ],
      [
        'whd_JGfrWbOjb6kYoUxDSKbkvUQ6',
        'evt_LnDKqAlD1Ugx3uTNT9wAUOoF',
        'job.completed',
        '2026-01-15T12:00:08Z',
        'job_hgujC9txbpj3JAbL3PdSGzEZ',
        'succeeded',
      ],
    ],
  ],
  [
    'jobs at the end',
    [
      ['job_hgujC9txbpj3JAbL3PdSGzEZ', 'completed', 100, 2, '2026-01-15T12:00:08Z'],
      ['job_qNhKMQKrNa7minCeLPvMLpQP', 'completed', 100, 2, '2026-01-15T12:00:08Z'],
    ],
  ],
  ['credits at the end', { balance: 99996, used: 4 }],
  [
    'arrivals',
    [
      ['evt_OCJoMR7iQIVlO5H0PXrqC2iu', 'job.completed', 'job_Yr7WvYds1wvQaPdwUJlUDYzk'],
      ['evt_QyCzI9DbLU9TiDp2TLBONRM9', 'job.completed', 'job_hTN4zxjhuetv6KDnViB1J9Hq'],
      ['evt_Vc3WDHgTVDZQRMc0x4SJj446', 'job.completed', 'job_EAV0LDk5X3vZ6uRMY288WzjV'],
      ['evt_2oOtQr9F4MWAb6CdQhgq60NK', 'job.completed', 'job_VfENEKyyJQRKvZu7DUFkHMJ2'],
      ['evt_iBkQjwSPnogpwUuur7xG9dqg', 'job.completed', 'job_A3waceBS437bfHzbaMsru6P9'],
      ['evt_vQv1hu9VZP1GAblAAMag6z44', 'job.completed', 'job_V5puU6cFvWSQdjurWMLq0aZF'],
      ['evt_TrBXlw7HFEXfpxDv5iJKjSxo', 'job.completed', 'job_2EtPnXLjTFXi65TGXqEHNN1k'],
      ['evt_rjq05zeLBqWei7ePY3tu8WX7', 'job.completed', 'job_CVkUrNDX6mxPexluNvsACwbW'],
      ['evt_hDVgm2V13f7tnd9G62n3Q8IT', 'job.completed', 'job_rfLL50WM26ODlWtTKidh0d3U'],
      ['evt_eaL6jkrrE9LEuwb81OFh9bFj', 'job.completed', 'job_qNhKMQKrNa7minCeLPvMLpQP'],
      ['evt_LnDKqAlD1Ugx3uTNT9wAUOoF', 'job.completed', 'job_hgujC9txbpj3JAbL3PdSGzEZ'],
    ],
  ],
];
