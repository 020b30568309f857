import { describe, expect, it } from 'vitest';
import { createApp, type MockApp } from '../../src/app.js';
import type { FinishedResponse } from '../../src/http/observe-responses.js';
import { contractProblems, takeContractViolations, checkContracts } from '../support/contract.js';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';

/** Runs one request and returns the finished response the observers saw. */
async function observe(app: MockApp, send: (api: ReturnType<typeof client>) => PromiseLike<unknown>): Promise<FinishedResponse> {
  const seen: FinishedResponse[] = [];
  const observer = (response: FinishedResponse) => void seen.push({ ...response, headers: { ...response.headers } });
  app.responseObservers.add(observer);
  await send(client(app));
  app.responseObservers.delete(observer);
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('the observer seam of createApp', () => {
  it('sees every finished /v1 response with its operation, and nothing outside /v1', async () => {
    const seen: FinishedResponse[] = [];
    const app = createApp({ clock: '2026-01-15T12:00:00Z', onResponse: (response) => void seen.push(response) });
    const api = client(app);
    await api.get('/v1/status').set(bearer(KEYS.free));
    await api.get('/v1/no-such-thing').set(bearer(KEYS.free));
    await api.get('/openapi.json');
    await api.get('/__admin/health');
    expect(seen.map((r) => [r.method, r.path, r.status, r.operation?.operationId])).toEqual([
      ['GET', '/v1/status', 200, 'getStatus'],
      ['GET', '/v1/no-such-thing', 404, undefined],
    ]);
    expect(seen[0]!.headers['request-id']).toMatch(/^req_/);
  });

  it('an observer that throws never changes the response', async () => {
    const app = createApp({
      onResponse: () => {
        throw new Error('observer bug');
      },
    });
    const res = await client(app).get('/v1/status').set(bearer(KEYS.free));
    expect(res.status).toBe(200);
  });
});

describe('response contracts', () => {
  it('accept what the sandbox really answers: successes, errors and unknown routes', async () => {
    const app = makeApp();
    const responses = [
      await observe(app, (api) => api.get('/v1/status').set(bearer(KEYS.free))),
      await observe(app, (api) => api.post('/v1/auth/keys').set(bearer(KEYS.paid)).send({ name: 'ci' })),
      await observe(app, (api) => api.get('/v1/auth/keys?limit=0').set(bearer(KEYS.paid))),
      await observe(app, (api) => api.post('/v1/auth/keys').set(bearer(KEYS.freeReadOnly)).send({})),
      await observe(app, (api) => api.get('/v1/status')),
      await observe(app, (api) => api.get('/v1/nowhere').set(bearer(KEYS.free))),
      await observe(app, (api) => api.delete('/v1/status').set(bearer(KEYS.free))),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 201, 400, 403, 401, 404, 405]);
    for (const response of responses) expect(contractProblems(app, response), `${response.method} ${response.url}`).toEqual([]);
  });

  it('§8: accept a 429 answered before routing, against the operation of its path', async () => {
    const app = makeApp({ rateLimit: 'free=1,paid=1' });
    await client(app).get('/v1/status').set(bearer(KEYS.free));
    const limited = await observe(app, (api) => api.get('/v1/status').set(bearer(KEYS.free)));
    expect(limited.status).toBe(429);
    expect(limited.operation).toBeUndefined();
    expect(contractProblems(app, limited)).toEqual([]);
  });

  describe('reject what the document does not describe', () => {
    const cases: Array<[string, (r: FinishedResponse) => FinishedResponse, RegExp]> = [
      ['an undocumented status', (r) => ({ ...r, status: 418 }), /status 418 is not documented for getStatus/],
      ['a success body off its schema', (r) => ({ ...r, body: { limits: {} } }), /body does not match the 200 schema of getStatus/],
      [
        'an extra member in a closed body',
        (r) => ({ ...r, body: { ...(r.body as object), surprise: 1 } }),
        /must NOT have additional properties/,
      ],
      [
        'a missing documented header',
        (r) => ({ ...r, headers: { ...r.headers, 'request-id': undefined } }),
        /documented header Request-Id is missing/,
      ],
      [
        'a malformed header',
        (r) => ({ ...r, headers: { ...r.headers, 'x-ratelimit-remaining': 'plenty' } }),
        /header X-RateLimit-Remaining/,
      ],
      [
        'a body that is not JSON',
        (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/plain' } }),
        /content-type is text\/plain/,
      ],
    ];
    it.each(cases)('%s', async (_name, change, problem) => {
      const app = makeApp();
      const good = await observe(app, (api) => api.get('/v1/status').set(bearer(KEYS.free)));
      expect(contractProblems(app, change(good)).join('\n')).toMatch(problem);
    });

    it('§7.2: an error code that belongs to another status, or is not in the catalog', async () => {
      const app = makeApp();
      const unknownRoute = await observe(app, (api) => api.get('/v1/nowhere').set(bearer(KEYS.free)));
      const body = unknownRoute.body as { error: Record<string, unknown> };
      const wrongCode = { ...unknownRoute, body: { error: { ...body.error, code: 'bad_request' } } };
      expect(contractProblems(app, wrongCode).join('\n')).toMatch(/bad_request belongs to 400, answered with 404/);
      const madeUp = { ...unknownRoute, body: { error: { ...body.error, code: 'made_up' } } };
      expect(contractProblems(app, madeUp).join('\n')).toMatch(/"made_up" is not in the error catalog/);
    });

    it('an unknown route whose body is not the Error envelope', async () => {
      const app = makeApp();
      const unknown = await observe(app, (api) => api.get('/v1/nowhere').set(bearer(KEYS.free)));
      expect(contractProblems(app, { ...unknown, body: { message: 'Not Found' } }).join('\n')).toMatch(/not the Error envelope/);
      expect(contractProblems(app, { ...unknown, status: 200 }).join('\n')).toMatch(/status 200 for a request no operation answers/);
    });
  });

  it('§9.3: a deprecated operation must carry its Deprecation, Sunset and Link headers', async () => {
    const app = makeApp({
      deprecations: [
        { operation_id: 'getStatus', deprecated_at: '2026-01-01T00:00:00Z', sunset: '2027-01-01T00:00:00Z', link: '/docs/status' },
      ],
    });
    const deprecated = await observe(app, (api) => api.get('/v1/status').set(bearer(KEYS.free)));
    expect(contractProblems(app, deprecated)).toEqual([]);
    expect(contractProblems(app, { ...deprecated, headers: { ...deprecated.headers, sunset: undefined } })).toEqual([
      'documented header Sunset is missing',
    ]);
    expect(contractProblems(app, { ...deprecated, headers: { ...deprecated.headers, deprecation: 'yesterday' } }).join('\n')).toMatch(
      /header Deprecation/,
    );
  });

  it('record violations of a watched app for the per-test check', async () => {
    const app = checkContracts(createApp({ clock: '2026-01-15T12:00:00Z' }));
    const good = await observe(app, (api) => api.get(`/v1/status`).set(bearer(KEYS.paid)));
    expect(takeContractViolations()).toEqual([]);
    for (const observer of app.responseObservers) observer({ ...good, status: 418 });
    const recorded = takeContractViolations();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatch(/GET \/v1\/status -> 418/);
  });
});
