import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../../src/app.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { listExperiences } from '../../src/resources/experiences/operations.js';
import { EXPERIENCE_TYPES, type ExperienceRecord } from '../../src/store/records.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { expectSuccess, newTenant, PINNED, stateOf } from '../support/resources.js';

describe('GET /v1/experiences (spec §4.9)', () => {
  let app: MockApp;
  beforeEach(() => {
    app = makeApp();
  });
  const list = (query = '', token: string = KEYS.free) => client(app).get(`/v1/experiences${query}`).set(bearer(token));

  it("§4.9, §2.1: lists the account's experiences newest first; url is the path with /v1 (contract §2)", async () => {
    const res = await list('?limit=100');
    expectSuccess(res, listExperiences);
    expect(res.body.url).toBe('/v1/experiences');
    expect(res.body.has_more).toBe(false);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(res.body.data.map((e: ExperienceRecord) => e.id)).toEqual(state.experiences.map((e) => e.id).reverse());
  });

  it('§2.7: a fresh account holds experiences of all ten types, each with its type-specific details (checked by the schema)', async () => {
    const res = await list('?limit=100');
    expectSuccess(res, listExperiences);
    expect(new Set(res.body.data.map((e: ExperienceRecord) => e.type))).toEqual(new Set(EXPERIENCE_TYPES));
  });

  it.each(EXPERIENCE_TYPES)('§4.9: type=%s lists only experiences of that type', async (type) => {
    const res = await list(`?type=${type}&limit=100`);
    expectSuccess(res, listExperiences);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const experience of res.body.data) expect(experience.type).toBe(type);
    const state = await stateOf(app, ACCOUNTS.free);
    expect(res.body.data).toHaveLength(state.experiences.filter((e) => e.type === type).length);
  });

  it('§4.9: the type filter pages with starting_after and limit', async () => {
    const state = await stateOf(app, ACCOUNTS.free);
    const events = state.experiences.filter((e) => e.type === 'event').reverse();
    expect(events.length).toBeGreaterThanOrEqual(2);
    const first = await list('?type=event&limit=1');
    expect(first.body).toMatchObject({ has_more: true, data: [{ id: events[0]!.id }] });
    const second = await list(`?type=event&limit=1&starting_after=${events[0]!.id}`);
    expect(second.body.data[0].id).toBe(events[1]!.id);
  });

  it('§2.7: active_grants_count agrees with the active grants of the account state', async () => {
    const state = await stateOf(app, ACCOUNTS.free);
    for (const experience of state.experiences) {
      const active = state.grants.filter((g) => g.experience_id === experience.id && g.status === 'active').length;
      expect(experience.active_grants_count, experience.id).toBe(active);
    }
    expect(state.experiences.some((e) => e.active_grants_count > 0)).toBe(true);
  });

  it('§4.9, §7.2: an unknown type is 400 bad_request naming type', async () => {
    expectError(await list('?type=podcast'), 'bad_request', {
      param: 'type',
      message: MESSAGES.invalidQuery('type', `must be one of: ${EXPERIENCE_TYPES.join(', ')}`),
    });
  });

  it('§4.9, §7.2: an unknown query parameter is 400 parameter_unknown; a bad limit is 400 bad_request', async () => {
    expectError(await list('?kind=course'), 'parameter_unknown', { param: 'kind', message: MESSAGES.unknownParameter('kind') });
    expectError(await list('?limit=0'), 'bad_request', { param: 'limit', message: MESSAGES.invalidQuery('limit', 'must be >= 1') });
  });

  it("tenancy: the paid account's experiences are not listed, and its ids are not valid cursors", async () => {
    const res = await list('?limit=100');
    const ids = res.body.data.map((e: ExperienceRecord) => e.id);
    expect(ids).toContain(PINNED.free.course);
    expect(ids).not.toContain(PINNED.paid.course);
    expectError(await list(`?starting_after=${PINNED.paid.course}`), 'bad_request', {
      param: 'starting_after',
      message: `Invalid value for 'starting_after': no object with id '${PINNED.paid.course}' in this list.`,
    });
  });

  it('tenancy: a tenant made through the admin API lists exactly its own experiences', async () => {
    const tenant = await newTenant(app);
    const res = await list('?limit=100', tenant.token);
    expectSuccess(res, listExperiences);
    const own = await stateOf(app, tenant.accountId);
    expect(res.body.data.map((e: ExperienceRecord) => e.id)).toEqual(own.experiences.map((e) => e.id).reverse());
  });
});
