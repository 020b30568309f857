import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { createEventSession, EVENT_SESSION_MESSAGES } from '../../src/resources/event-sessions/operations.js';
import { ACCOUNTS, bearer, client, expectError, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, PINNED, stateOf } from '../support/resources.js';

const session = {
  title: 'Week 1: Lighting basics',
  description: 'Bring a lamp and a phone.',
  start_time: '2026-02-01T17:00:00Z',
  end_time: '2026-02-01T18:30:00Z',
  location_type: 'zoom',
  location_details: 'https://zoom.us/j/12345678901',
  allow_rsvp: false,
  capacity: 40,
  repeat_frequency: 'week',
};

describe('POST /v1/experiences/{experience_id}/event_sessions (spec §4.12)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const create = (experienceId: string, body: unknown, token: string = KEYS.free) =>
    client(app)
      .post(`/v1/experiences/${experienceId}/event_sessions`)
      .set(bearer(token))
      .send(body as object);

  it('§4.12, §2.8: creates a session of an event experience and answers the EventSession (201)', async () => {
    const res = await create(PINNED.free.workshop, session);
    expectSuccess(res, createEventSession);
    expect(res.body).toEqual({ id: expect.stringMatching(/^evs_/), object: 'event_session', ...session });
  });

  it('§4.12: the session is recorded for its experience (account state)', async () => {
    const res = await create(PINNED.free.workshop, session);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(state.event_sessions.at(-1)).toEqual({ ...res.body, experience_id: PINNED.free.workshop, created_at: FROZEN_AT });
  });

  it('§4.12: omitted fields take the documented defaults', async () => {
    const res = await create(PINNED.free.workshop, { title: 'Office hours', start_time: '2026-02-01T17:00:00+01:00' });
    expectSuccess(res, createEventSession);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^evs_/),
      object: 'event_session',
      title: 'Office hours',
      description: '',
      start_time: '2026-02-01T16:00:00Z',
      end_time: '2026-02-01T17:00:00Z',
      location_type: 'zoom',
      location_details: '',
      allow_rsvp: true,
      capacity: null,
      repeat_frequency: 'never',
    });
  });

  it('§4.12: each location_type and repeat_frequency of the enums is accepted', async () => {
    for (const location_type of ['zoom', 'google_meet', 'custom_link', 'physical_address']) {
      expectSuccess(await create(PINNED.free.workshop, { ...session, location_type }), createEventSession);
    }
    for (const repeat_frequency of ['never', 'day', 'week', 'month', 'year']) {
      expectSuccess(await create(PINNED.free.workshop, { ...session, repeat_frequency }), createEventSession);
    }
  });

  it('§4.12: an experience of another type is 422 naming experience_id, and nothing is created', async () => {
    const before = await stateOf(app, ACCOUNTS.free);
    const res = await create(PINNED.free.course, session);
    expectError(res, 'validation_failed', {
      param: 'experience_id',
      errors: { experience_id: [EVENT_SESSION_MESSAGES.notAnEvent('course')] },
    });
    expect((await stateOf(app, ACCOUNTS.free)).event_sessions).toEqual(before.event_sessions);
  });

  it('§4.12: start_time must be before end_time (422 naming end_time)', async () => {
    for (const end_time of ['2026-02-01T17:00:00Z', '2026-02-01T16:00:00Z']) {
      expectError(await create(PINNED.free.workshop, { ...session, end_time }), 'validation_failed', {
        param: 'end_time',
        errors: { end_time: [EVENT_SESSION_MESSAGES.endBeforeStart] },
      });
    }
  });

  it('§4.12: capacity of at least 1, the enums and date-times are validated (422 naming each field)', async () => {
    const res = await create(PINNED.free.workshop, {
      ...session,
      capacity: 0,
      location_type: 'teams',
      repeat_frequency: 'hourly',
      start_time: 'next monday',
    });
    expectError(res, 'validation_failed', {
      param: 'start_time',
      errors: {
        start_time: ['must be a valid date-time'],
        location_type: ['must be one of: zoom, google_meet, custom_link, physical_address'],
        capacity: ['must be >= 1'],
        repeat_frequency: ['must be one of: never, day, week, month, year'],
      },
    });
  });

  it('§4.12: capacity must be an integer', async () => {
    expectError(await create(PINNED.free.workshop, { ...session, capacity: 2.5 }), 'validation_failed', {
      param: 'capacity',
      errors: { capacity: ['must be of type integer or null'] },
    });
  });

  it("spec §4.12 (required fields not shown): a session without a title takes the experience's name; long texts are stored as sent", async () => {
    const experience = (await stateOf(app, ACCOUNTS.free)).experiences.find((e) => e.id === PINNED.free.workshop)!;
    const untitled = await create(PINNED.free.workshop, { start_time: session.start_time });
    expectSuccess(untitled, createEventSession);
    expect(untitled.body.title).toBe(experience.name);
    const long = { title: 't'.repeat(300), description: 'd'.repeat(6000), location_details: 'l'.repeat(1200) };
    const res = await create(PINNED.free.workshop, { start_time: session.start_time, ...long });
    expectSuccess(res, createEventSession);
    expect(res.body).toMatchObject(long);
  });

  it('§4.12, §7.2: start_time is required (400 parameter_missing): a session cannot be scheduled without it', async () => {
    expectError(await create(PINNED.free.workshop, { title: 'x' }), 'parameter_missing', {
      param: 'start_time',
      message: MESSAGES.missingParameter('start_time'),
    });
  });

  it('§4.12: an unknown experience is 404 naming experience_id; a raw id is 404', async () => {
    expectError(await create('exp_nope', session), 'resource_missing', {
      param: 'experience_id',
      message: "No such experience: 'exp_nope'.",
    });
    expectError(await create('77', session), 'resource_missing', { param: 'experience_id', message: "No such object: '77'." });
  });

  it("tenancy: another account's event experience is 404 and gets no session", async () => {
    const before = await stateOf(app, ACCOUNTS.paid);
    expectError(await create(PINNED.paid.workshop, session), 'resource_missing', {
      param: 'experience_id',
      message: `No such experience: '${PINNED.paid.workshop}'.`,
    });
    expect((await stateOf(app, ACCOUNTS.paid)).event_sessions).toEqual(before.event_sessions);
  });

  it('tenancy: a tenant made through the admin API schedules on its own event experiences', async () => {
    const tenant = await newTenant(app, 'paid');
    const event = (await stateOf(app, tenant.accountId)).experiences.find((e) => e.type === 'event')!;
    expectSuccess(await create(event.id, session, tenant.token), createEventSession);
    expectError(await create(event.id, session), 'resource_missing', {
      param: 'experience_id',
      message: `No such experience: '${event.id}'.`,
    });
  });
});
