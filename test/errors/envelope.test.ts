/** Spec §7 (envelope, codes) and §4 common rules: every error is the envelope with Request-Id and rate-limit headers. */
import Koa from 'koa';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { MESSAGES } from '../../src/errors/messages.js';
import { errorEnvelope } from '../../src/http/error-envelope.js';
import { sendReply } from '../../src/http/reply.js';
import { requestId } from '../../src/http/request-id.js';
import { RequestIdGenerator } from '../../src/random.js';
import { bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';

const auth = bearer(KEYS.free);

async function keyCount(app: ReturnType<typeof makeApp>): Promise<number> {
  const res = await client(app).get('/v1/auth/keys?limit=100').set(auth);
  return res.body.data.length;
}

describe('spec §7.2: bad_request', () => {
  it('answers malformed JSON with 400 bad_request and leaves state unharmed', async () => {
    const app = makeApp();
    const before = await keyCount(app);
    const res = await client(app).post('/v1/auth/keys').set(auth).set('Content-Type', 'application/json').send('{"name": ');
    expectError(res, 'bad_request', { message: MESSAGES.bodyMalformed });
    expect(await keyCount(app)).toBe(before);
  });

  it('answers a write whose body is not JSON with 400 bad_request', async () => {
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).set('Content-Type', 'text/plain').send('name=x');
    expectError(res, 'bad_request', { message: MESSAGES.bodyNotJson });
  });

  it('answers a form-encoded write with 400 bad_request', async () => {
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).type('form').send({ name: 'x' });
    expectError(res, 'bad_request', { message: MESSAGES.bodyNotJson });
  });

  it.each(['[]', '"text"', '42', 'null', 'true'])('answers a JSON body that is not an object (%s) with 400 bad_request', async (raw) => {
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).set('Content-Type', 'application/json').send(raw);
    expectError(res, 'bad_request', { message: MESSAGES.bodyNotObject });
  });

  it('answers a body over 1 MiB with 400 bad_request and creates nothing', async () => {
    const app = makeApp();
    const before = await keyCount(app);
    const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const res = await client(app).post('/v1/auth/keys').set(auth).set('Content-Type', 'application/json').send(huge);
    expectError(res, 'bad_request', { message: MESSAGES.bodyTooLarge('1mb') });
    expect(await keyCount(app)).toBe(before);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1&limit=2', 'limit'],
  ])('answers an invalid query parameter (%s) with 400 bad_request naming it', async (query, param) => {
    const res = await client(makeApp()).get(`/v1/auth/keys?${query}`).set(auth);
    expectError(res, 'bad_request', { param, message: /^Invalid value for 'limit'/ });
  });
});

describe('spec §7.2: parameter_missing and parameter_unknown', () => {
  it('names the missing field with parameter_missing (admin API shares the validation)', async () => {
    const res = await client(makeApp()).post('/__admin/api_keys').send({ name: 'x' });
    expectError(res, 'parameter_missing', { param: 'account_id', message: MESSAGES.missingParameter('account_id'), api: false });
  });

  it('answers a body wrapped under a resource key with parameter_unknown naming that key', async () => {
    const res = await client(makeApp())
      .post('/v1/auth/keys')
      .set(auth)
      .send({ api_key: { name: 'wrapped' } });
    expectError(res, 'parameter_unknown', { param: 'api_key', message: MESSAGES.wrappedBody('api_key') });
  });

  it('answers an unknown top-level field with parameter_unknown naming it', async () => {
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).send({ name: 'ok', colour: 'blue' });
    expectError(res, 'parameter_unknown', { param: 'colour', message: MESSAGES.unknownParameter('colour') });
  });

  it('answers an unknown query parameter with parameter_unknown naming it', async () => {
    const res = await client(makeApp()).get('/v1/auth/keys?sort=asc').set(auth);
    expectError(res, 'parameter_unknown', { param: 'sort' });
  });
});

describe('spec §7.2: validation_failed', () => {
  it('answers a well-formed body with a wrongly typed field with 422 and errors keyed by field', async () => {
    const res = await client(makeApp()).post('/v1/auth/keys').set(auth).send({ name: 42 });
    expectError(res, 'validation_failed', {
      param: 'name',
      errors: { name: ['must be of type string or null'] },
      message: MESSAGES.validationFailed,
    });
  });

  it('lists every invalid field in errors', async () => {
    const res = await client(makeApp())
      .post('/__admin/api_keys')
      .send({ account_id: 'acct_free_default', access: 'root', expires_at: 'soon' });
    expectError(res, 'validation_failed', {
      api: false,
      param: 'access',
      errors: { access: ['must be one of: full, read_only'], expires_at: ['must be a valid date-time'] },
    });
  });
});

describe('contract §2: unknown paths and methods under /v1', () => {
  it.each(['/v1/nope', '/v1/', '/v1', '/v1/auth/keys/extra/segments', '/v1/%E0%A4%A'])(
    'answers %s with 404 resource_missing in the envelope',
    async (path) => {
      const res = await client(makeApp()).get(path).set(auth);
      expectError(res, 'resource_missing');
    },
  );

  it('answers a known path with another method with 405 and an Allow header', async () => {
    const res = await client(makeApp()).delete('/v1/auth/keys').set(auth);
    expectError(res, 'method_not_allowed');
    expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('answers unknown paths outside /v1 in the envelope too', async () => {
    const res = await client(makeApp()).get('/index.html');
    expectError(res, 'resource_missing', { api: false });
  });
});

describe('spec §7.2: internal_error', () => {
  function appThatThrows(error: unknown) {
    const app = new Koa();
    app.silent = true;
    const ids = new RequestIdGenerator();
    app.use(sendReply() as never);
    app.use(requestId({ generate: () => ids.next() }) as never);
    app.use(errorEnvelope() as never);
    app.use(() => {
      throw error;
    });
    return app;
  }

  it('turns an unexpected exception into 500 internal_error without a stack trace', async () => {
    const boom = new TypeError('secret detail at /srv/app.js:10:5');
    const res = await request(appThatThrows(boom).callback()).get('/v1/anything');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { type: 'api_error', code: 'internal_error', message: MESSAGES.internal } });
    expect(res.text).not.toContain('secret');
    expect(res.headers['request-id']).toMatch(/^req_/);
  });

  it('keeps the headers an ApiError carries (e.g. Retry-After)', async () => {
    const res = await request(appThatThrows(new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': '7' } })).callback()).get('/');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
  });

  it('survives throwing non-Error values', async () => {
    for (const thrown of [undefined, null, 'text', 42, { status: 418 }]) {
      const res = await request(appThatThrows(thrown).callback()).get('/');
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
    }
  });
});

describe('spec §7.3.4: Request-Id on every response', () => {
  it('sends Request-Id and X-Request-Id on successes, errors and admin responses, unique per request', async () => {
    const app = makeApp();
    const responses = [
      await client(app).get('/v1/status').set(auth),
      await client(app).get('/v1/status'),
      await client(app).get('/v1/unknown').set(auth),
      await client(app).get('/__admin/health'),
    ];
    const ids = responses.map((r) => r.headers['request-id']);
    for (const r of responses) expect(r.headers['x-request-id']).toBe(r.headers['request-id']);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^req_\d{12}$/);
  });
});
