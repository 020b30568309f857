/**
 * Input decoding, hardened against hostile input: request bodies in content codings, empty bodies,
 * keys that are names of Object.prototype members, and the clock's range. Every refusal is the envelope with a
 * Request-Id, and the sandbox keeps serving afterwards.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import type request from 'supertest';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { MAX_CODINGS, SUPPORTED_CODINGS } from '../../src/http/content-coding.js';
import { MAX_INSTANT, MIN_INSTANT } from '../../src/clock/virtual-clock.js';
import { resolveOptions } from '../../src/config/options.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import type { MockApp } from '../../src/app.js';

const CREATE_KEY = '/v1/auth/keys';

/** Sends `bytes` as they are (supertest would JSON-encode a Buffer under a JSON content type). */
function sendRaw(req: request.Test, bytes: Buffer | string): request.Test {
  return req.serialize((data: unknown) => data as string).send(bytes as unknown as string);
}

function postKey(app: MockApp, body: Buffer | string, encoding?: string): request.Test {
  const req = client(app).post(CREATE_KEY).set(bearer(KEYS.free)).set('Content-Type', 'application/json');
  if (encoding !== undefined) req.set('Content-Encoding', encoding);
  return sendRaw(req, body);
}

async function keyCount(app: MockApp): Promise<number> {
  return (await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`)).body.state.api_keys.length;
}

/** State unharmed: nothing was created, and the next valid request works. */
async function expectStillServing(app: MockApp, keysBefore: number): Promise<void> {
  expect(await keyCount(app)).toBe(keysBefore);
  const res = await postKey(app, '{"name":"after"}');
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.name).toBe('after');
}

const NAMED = Buffer.from('{"name":"encoded"}');

describe('request bodies in a content coding (RFC 9110 §8.4)', () => {
  it.each([
    ['gzip', gzipSync(NAMED)],
    ['GZIP', gzipSync(NAMED)],
    ['x-gzip', gzipSync(NAMED)],
    ['X-Gzip', gzipSync(NAMED)],
    ['deflate', deflateSync(NAMED)],
    ['deflate', deflateRawSync(NAMED)],
    ['br', brotliCompressSync(NAMED)],
    ['identity', NAMED],
    ['gzip, identity', gzipSync(NAMED)],
    ['gzip, gzip', gzipSync(gzipSync(NAMED))],
    ['deflate,gzip', gzipSync(deflateSync(NAMED))],
  ])('decodes Content-Encoding: %s (codings are case-insensitive, undone in reverse order)', async (encoding, bytes) => {
    const app = makeApp();
    const res = await postKey(app, bytes, encoding);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.name).toBe('encoded');
    // The journal shows the body as decoded, like every other body.
    const [entry] = (await client(app).get('/__admin/requests?limit=1')).body.data;
    expect(entry.body).toEqual({ name: 'encoded' });
  });

  it.each(['compress', 'zstd', 'gzip, compress', 'x-unknown'])(
    'answers Content-Encoding: %s with 415 naming the coding',
    async (encoding) => {
      const app = makeApp();
      const before = await keyCount(app);
      const res = await postKey(app, gzipSync(NAMED), encoding);
      const coding = encoding
        .split(',')
        .map((c) => c.trim())
        .find((c) => c !== 'gzip')!;
      expectError(res, 'unsupported_media_type', {
        param: 'Content-Encoding',
        message: MESSAGES.unsupportedCoding(coding, SUPPORTED_CODINGS),
      });
      expect(res.body.error.message).toContain(`'${coding}'`);
      await expectStillServing(app, before);
    },
  );

  it(`answers more than ${MAX_CODINGS} stacked codings with 415`, async () => {
    const app = makeApp();
    const codings = Array.from({ length: MAX_CODINGS + 1 }, () => 'gzip');
    const bytes = codings.reduce((data) => gzipSync(data), NAMED);
    const res = await postKey(app, bytes, codings.join(', '));
    expectError(res, 'unsupported_media_type', {
      param: 'Content-Encoding',
      message: MESSAGES.tooManyCodings(MAX_CODINGS + 1, MAX_CODINGS),
    });
  });

  it.each([
    ['gzip', Buffer.from('not gzip at all')],
    ['gzip', gzipSync(NAMED).subarray(0, 12)],
    ['deflate', Buffer.from('not deflate')],
    ['br', Buffer.from([0xff, 0xff, 0xff, 0xff])],
  ])('answers a corrupt %s body with 400 and keeps serving', async (encoding, bytes) => {
    const app = makeApp();
    const before = await keyCount(app);
    const res = await postKey(app, bytes, encoding);
    expectError(res, 'bad_request', { param: 'Content-Encoding', message: MESSAGES.corruptCoding(encoding) });
    await expectStillServing(app, before);
  });

  it('applies the 1 MiB limit to the decoded body (a zip bomb stops at the limit)', async () => {
    const app = makeApp();
    const before = await keyCount(app);
    const bomb = gzipSync(Buffer.from(`{"name":"${'a'.repeat(4 * 1024 * 1024)}"}`));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await postKey(app, bomb, 'gzip');
    expectError(res, 'bad_request', { message: MESSAGES.bodyTooLarge('1mb') });
    await expectStillServing(app, before);
  });

  it('answers a valid coding of text that is not JSON as malformed JSON', async () => {
    const res = await postKey(makeApp(), gzipSync('{"name":'), 'gzip');
    expectError(res, 'bad_request', { message: MESSAGES.bodyMalformed });
  });

  it('decodes admin bodies the same way', async () => {
    const res = await sendRaw(
      client(makeApp()).post('/__admin/clock').set('Content-Type', 'application/json').set('Content-Encoding', 'GZIP'),
      gzipSync('{"now":"2026-03-01T00:00:00Z"}'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.now).toBe('2026-03-01T00:00:00.000Z');
  });
});

describe('an empty body with Content-Type: application/json is no body', () => {
  it('creates a key from an empty body (201), as without one', async () => {
    const app = makeApp();
    const res = await postKey(app, '');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.object).toBe('api_key');
  });

  it('creates a key from an empty chunked body', async () => {
    const app = makeApp();
    const req = client(app)
      .post(CREATE_KEY)
      .set(bearer(KEYS.free))
      .set('Content-Type', 'application/json')
      .set('Transfer-Encoding', 'chunked');
    const res = await sendRaw(req, '');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('creates a key from an empty gzip body (nothing to decode)', async () => {
    const res = await postKey(makeApp(), '', 'gzip');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('answers the crawl with 400 parameter_missing url, as without a body', async () => {
    const app = makeApp();
    const withoutBody = await client(app).post('/v1/web/crawl').set(bearer(KEYS.free));
    const res = await sendRaw(client(app).post('/v1/web/crawl').set(bearer(KEYS.free)).set('Content-Type', 'application/json'), '');
    expectError(res, 'parameter_missing', { param: 'url', message: withoutBody.body.error.message });
    expect(res.body).toEqual(withoutBody.body);
  });

  it('changes nothing on the inbox PATCH', async () => {
    const app = makeApp();
    const path = '/v1/email/inboxes/inbox_free_support';
    const inboxes = async () => (await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`)).body.state.inboxes;
    const before = await inboxes();
    const res = await sendRaw(client(app).patch(path).set(bearer(KEYS.free)).set('Content-Type', 'application/json'), '');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe('inbox_free_support');
    expect(await inboxes()).toEqual(before);
  });
});

/** Names of Object.prototype members: a user key named so must stay an ordinary key. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;

describe('user keys named like Object.prototype members are ordinary keys', () => {
  it.each(PROTOTYPE_KEYS)('Prefer: a scenario param named %s is refused with 400 naming the header', async (key) => {
    const app = makeApp();
    const res = await client(app).get('/v1/status').set(bearer(KEYS.free)).set('Prefer', `scenario=rate-limited; ${key}=1`);
    expectError(res, 'bad_request', { param: 'Prefer', message: /is not a param of 'rate-limited'/ });
    // Prefer parameter names are case-insensitive (RFC 7240 §2), so the message names them lower-cased.
    expect(res.body.error.message).toContain(`${key.toLowerCase()}: is not a param`);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it.each(PROTOTYPE_KEYS)('admin: a scenario param named %s is refused with 422 naming it', async (key) => {
    const app = makeApp();
    const res = await sendRaw(
      client(app).post('/__admin/scenarios').set('Content-Type', 'application/json'),
      `{"name":"rate-limited","params":{"${key}":1}}`,
    );
    expectError(res, 'validation_failed', {
      api: false,
      param: `params.${key}`,
      errors: { [`params.${key}`]: [expect.stringContaining("is not a param of 'rate-limited'")] },
    });
    expect((await client(app).get('/__admin/scenarios')).body.active).toEqual([]);
    expect(
      (
        await client(app)
          .post('/__admin/scenarios')
          .send({ name: 'rate-limited', params: { retry_after: 5 } })
      ).status,
    ).toBe(201);
  });

  it.each(PROTOTYPE_KEYS)('--scenario: a param named %s is refused at boot naming the setting', (key) => {
    expect(() => makeApp({ scenarios: [`rate-limited;${key}=1`] })).toThrow(new RegExp(`${key}.*is not a param of 'rate-limited'`));
  });

  it.each(PROTOTYPE_KEYS)('query: a parameter named %s is an unknown parameter (400)', async (key) => {
    const app = makeApp();
    const res = await client(app).get(`/v1/auth/keys?${key}=1`).set(bearer(KEYS.free));
    expectError(res, 'parameter_unknown', { param: key, message: MESSAGES.unknownParameter(key) });
    expect((await client(app).get('/v1/auth/keys').set(bearer(KEYS.free))).status).toBe(200);
  });

  it.each(PROTOTYPE_KEYS)('body: a top-level field named %s is an unknown parameter (400)', async (key) => {
    const app = makeApp();
    const before = await keyCount(app);
    const res = await postKey(app, `{"name":"x","${key}":{"polluted":true}}`);
    expectError(res, 'parameter_unknown', { param: key, message: MESSAGES.unknownParameter(key) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectStillServing(app, before);
  });

  it('metadata: keys named like prototype members are stored, shown and removed like any other', async () => {
    const app = makeApp();
    const path = '/v1/email/inboxes/inbox_free_support';
    const patch = (body: string) => sendRaw(client(app).patch(path).set(bearer(KEYS.free)).set('Content-Type', 'application/json'), body);
    const metadata = Object.fromEntries(PROTOTYPE_KEYS.map((key) => [key, `v-${key}`]));
    const res = await patch(JSON.stringify({ metadata }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const key of PROTOTYPE_KEYS) expect(Object.getOwnPropertyDescriptor(res.body.metadata, key)?.value).toBe(`v-${key}`);
    const state = (await client(app).get(`/__admin/accounts/${ACCOUNTS.free}`)).body.state.inboxes.find(
      (i: { id: string }) => i.id === 'inbox_free_support',
    );
    for (const key of PROTOTYPE_KEYS) expect(Object.getOwnPropertyDescriptor(state.metadata, key)?.value).toBe(`v-${key}`);
    const removed = await patch(JSON.stringify({ metadata: Object.fromEntries(PROTOTYPE_KEYS.map((key) => [key, null])) }));
    expect(removed.status).toBe(200);
    for (const key of PROTOTYPE_KEYS) expect(Object.hasOwn(removed.body.metadata, key)).toBe(false);
  });

  it.each(PROTOTYPE_KEYS)('answers: a field id named %s is an unknown field (422)', async (key) => {
    const app = makeApp();
    const body = `{"form_id":"frm_free_survey","email":"sam@example.com","answers":{"${key}":"x"}}`;
    const res = await sendRaw(
      client(app).post('/v1/form_submissions').set(bearer(KEYS.free)).set('Content-Type', 'application/json'),
      body,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.headers['request-id']).toMatch(/^req_\d+$/);
    expect(Object.getOwnPropertyDescriptor(res.body.error.errors, `answers.${key}`)?.value).toEqual(['is not a field of this form']);
    const ok = await client(app)
      .post('/v1/form_submissions')
      .set(bearer(KEYS.free))
      .send({ form_id: 'frm_free_survey', email: 'sam@example.com', answers: { fld_free_survey_role: 'Side project' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });
});

describe('the clock stays within the instants the sandbox can write and read back', () => {
  const END = '9999-12-31T23:59:59Z';

  async function clockNow(app: MockApp): Promise<string> {
    return (await client(app).get('/__admin/clock')).body.now;
  }

  it('goes up to the last second of year 9999, where every /v1 timestamp stays in range', async () => {
    const app = makeApp();
    const set = await client(app).post('/__admin/clock').send({ now: END });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.now).toBe('9999-12-31T23:59:59.000Z');
    // The window would reset a minute later; it is written as the range's last second.
    const status = await client(app).get('/v1/status').set(bearer(KEYS.free));
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    expect(status.body.limits.rate_limit.resets_at).toBe(END);
    // An event session's default end (start + 60 minutes) is clamped the same way.
    const session = await client(app)
      .post('/v1/experiences/exp_free_workshop/event_sessions')
      .set(bearer(KEYS.free))
      .send({ title: 'Last one', start_time: '9999-12-31T23:30:00Z' });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    expect(session.body.end_time).toBe(END);
    // A crawl's timeline ends past the range: its timestamps are clamped, never +010000.
    const crawl = await client(app).post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com', max_pages: 2 });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(201);
    expect(JSON.stringify(crawl.body)).not.toMatch(/\+0\d{5}-/);
  });

  it('refuses to advance past the range with 422 naming seconds, and keeps the clock and /v1 working', async () => {
    const app = makeApp();
    await client(app).post('/__admin/clock').send({ now: '9999-12-31T23:00:00Z' });
    const res = await client(app).post('/__admin/clock/advance').send({ seconds: 3600 });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'seconds',
      errors: { seconds: [MESSAGES.clockAdvancePast(MAX_INSTANT, 3599)] },
    });
    expect(await clockNow(app)).toBe('9999-12-31T23:00:00.000Z');
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    const last = await client(app).post('/__admin/clock/advance').send({ seconds: 3599 });
    expect(last.body.now).toBe('9999-12-31T23:59:59.000Z');
  });

  it.each(['9999-12-31T23:59:59-00:01', '0000-01-01T00:00:00+00:01'])(
    'refuses to set the clock to %s (outside the range in UTC) with 422 naming now',
    async (now) => {
      const app = makeApp();
      const res = await client(app).post('/__admin/clock').send({ now });
      expectError(res, 'validation_failed', {
        api: false,
        param: 'now',
        errors: { now: [MESSAGES.clockOutOfRange(MIN_INSTANT, MAX_INSTANT)] },
      });
      expect(await clockNow(app)).toBe('2026-01-15T12:00:00.000Z');
      expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
    },
  );

  it('accepts the first instant of the range', async () => {
    const res = await client(makeApp()).post('/__admin/clock').send({ now: MIN_INSTANT });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.now).toBe('0000-01-01T00:00:00.000Z');
  });

  it('stops a running clock at the end of the range instead of leaving it', async () => {
    let real = 1_000_000;
    const app = makeApp({ realTime: () => real });
    await client(app).post('/__admin/clock').send({ mode: 'running', now: '9999-12-31T23:59:58Z' });
    real += 10_000;
    expect(await clockNow(app)).toBe('9999-12-31T23:59:59.000Z');
    expect((await client(app).get('/v1/status').set(bearer(KEYS.free))).status).toBe(200);
  });

  it.each(['9999-12-31T23:59:59-01:00', '0000-01-01T00:00:00+01:00'])('refuses --clock %s naming the setting', (clock) => {
    expect(() => resolveOptions({ clock })).toThrow(ConfigError);
    expect(() => resolveOptions({ clock })).toThrow(/clock.*0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z/);
  });
});
