/** Contract §3.5: `Prefer: scenario=<name>` for one request, parsed as RFC 7240 says. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/errors/messages.js';
import { formatWord, parsePrefer } from '../../src/protocol/prefer.js';
import { getStatus } from '../../src/resources/status/operations.js';
import { crawlSite } from '../../src/resources/web/operations.js';
import { ACCOUNTS, bearer, client, expectError, KEYS, makeApp } from '../support/harness.js';
import { advance, pollJob } from '../support/jobs.js';
import { readRateLimit, retryAfter } from '../support/protocol.js';
import { activate, activeScenarios, journal } from '../support/scenarios.js';

describe('the Prefer header grammar (RFC 7240 §2)', () => {
  it.each([
    ['scenario=rate-limited', [{ name: 'scenario', value: 'rate-limited', params: [] }]],
    [
      'respond-async, scenario="rate-limited"',
      [
        { name: 'respond-async', value: undefined, params: [] },
        { name: 'scenario', value: 'rate-limited', params: [] },
      ],
    ],
    [
      'Scenario = "rate-limited" ; Retry_After = 5;x',
      [
        {
          name: 'scenario',
          value: 'rate-limited',
          params: [
            ['retry_after', '5'],
            ['x', undefined],
          ],
        },
      ],
    ],
    [
      'wait=10, handling=lenient',
      [
        { name: 'wait', value: '10', params: [] },
        { name: 'handling', value: 'lenient', params: [] },
      ],
    ],
    ['scenario="a \\"quoted\\" name, with a comma"', [{ name: 'scenario', value: 'a "quoted" name, with a comma', params: [] }]],
    ['scenario=first, scenario=second', [{ name: 'scenario', value: 'first', params: [] }]],
    [',, scenario=x ,', [{ name: 'scenario', value: 'x', params: [] }]],
    ['scenario=x;;error="a;b"', [{ name: 'scenario', value: 'x', params: [['error', 'a;b']] }]],
  ])('RFC 7240 §2: %s', (header, expected) => {
    expect(parsePrefer(header)).toEqual(expected);
  });

  it('RFC 7240 §2: malformed elements are skipped, the well-formed ones kept', () => {
    expect(parsePrefer('scenario=a b, wait=5')).toEqual([{ name: 'wait', value: '5', params: [] }]);
    expect(parsePrefer('scenario="unterminated, wait=5')).toEqual([]);
    expect(parsePrefer('=x, @bad, scenario=ok')).toEqual([{ name: 'scenario', value: 'ok', params: [] }]);
    expect(parsePrefer('scenario=x; =y')).toEqual([]);
    expect(parsePrefer(undefined)).toEqual([]);
  });

  it('RFC 7240 §2: several Prefer headers are one list', () => {
    expect(parsePrefer(['respond-async', 'scenario=server-error']).map((p) => p.name)).toEqual(['respond-async', 'scenario']);
  });

  it('RFC 9110 §5.6.4: a value is written bare when it is a token, quoted and escaped otherwise', () => {
    expect(formatWord('rate-limited')).toBe('rate-limited');
    expect(formatWord('a "b"\\c')).toBe('"a \\"b\\"\\\\c"');
    expect(formatWord('')).toBe('""');
  });
});

describe('Prefer: scenario=<name> (contract §3.5)', () => {
  it('contract §3.5: applies the scenario to that request only, with Preference-Applied, and nothing is activated', async () => {
    const c = client(makeApp());
    const res = await c.get('/v1/status').set(bearer(KEYS.free)).set('Prefer', 'respond-async, scenario="rate-limited"');
    expectError(res, 'rate_limit_exceeded', { message: MESSAGES.rateLimited, extra: { plan_tier: 'free' } });
    expect(res.headers['preference-applied']).toBe('scenario=rate-limited');
    expect(readRateLimit(res).remaining).toBe(0);
    const next = await c.get('/v1/status').set(bearer(KEYS.free));
    expect(next.status).toBe(200);
    expect(next.headers['preference-applied']).toBeUndefined();
    expect(await activeScenarios(c)).toEqual([]);
    expect((await journal(c)).map((e) => e.scenario_ids)).toEqual([[], ['prefer:rate-limited']]);
  });

  it("contract §3.5: the preference's parameters are the scenario's params, coerced by their schemas", async () => {
    const c = client(makeApp());
    const res = await c.get('/v1/status').set(bearer(KEYS.paid)).set('Prefer', 'scenario=rate-limited; retry_after=3');
    expect(res.status).toBe(429);
    expect(retryAfter(res)).toBe(3);
  });

  it('contract §3.5: on a crawl, `Prefer: scenario=crawl-fails` fails that job only', async () => {
    const c = client(makeApp());
    const prefer = 'scenario=crawl-fails; error_code=crawl_timeout; error="Timed out after 30 s."';
    const failing = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).set('Prefer', prefer).send({ url: 'https://example.com/' });
    expect(failing.status).toBe(201);
    expect(failing.headers['preference-applied']).toBe('scenario=crawl-fails');
    const other = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).send({ url: 'https://example.com/' });
    await advance(c, 3600);
    expect(await pollJob(c, KEYS.free, failing.body.id)).toMatchObject({
      status: 'failed',
      error_code: 'crawl_timeout',
      error: 'Timed out after 30 s.',
    });
    expect((await pollJob(c, KEYS.free, other.body.id)).status).toBe('completed');
  });

  it('RFC 7240 §3: no Preference-Applied when the scenario did not act (crawl-fails on a read, or a crawl refused with 422)', async () => {
    const c = client(makeApp());
    const read = await c.get('/v1/status').set(bearer(KEYS.free)).set('Prefer', 'scenario=crawl-fails');
    expect(read.status).toBe(200);
    expect(read.headers['preference-applied']).toBeUndefined();
    const refused = await c.post('/v1/web/crawl').set(bearer(KEYS.free)).set('Prefer', 'scenario=crawl-fails').send({ url: 'nope' });
    expect(refused.status).toBe(422);
    expect(refused.headers['preference-applied']).toBeUndefined();
  });

  it('contract §3.5: the requested scenario comes before active ones; active ones still give what it does not', async () => {
    const c = client(makeApp());
    await activate(c, { name: 'server-error' });
    await activate(c, { name: 'deprecated-operations', operation_id: 'getStatus' });
    const res = await c.get('/v1/status').set(bearer(KEYS.free)).set('Prefer', 'scenario=rate-limited');
    expect(res.status).toBe(429);
    expect(res.headers.deprecation).toBe('@1767225600');
    const [entry] = await journal(c);
    expect(entry!.scenario_ids).toEqual(['prefer:rate-limited', 'scn_000002']);
  });

  it('§7.1: an unknown scenario, a bad param or a missing name is 400 bad_request naming the Prefer header', async () => {
    const c = client(makeApp());
    const cases: Array<[string, RegExp]> = [
      [
        'scenario=no-such-thing',
        /unknown scenario 'no-such-thing' \(available: connection-reset, crawl-fails, deprecated-operations, empty-response, keys-expired, no-response, rate-limited, server-error, slow-responses, truncated-response, webhooks-badly-signed, webhooks-duplicated, webhooks-out-of-order\)/,
      ],
      ['scenario=rate-limited; retry_after=soon', /retry_after: must be of type integer or null/],
      ['scenario=server-error; retry_after=5', /retry_after: is not a param of 'server-error' \(its params: none\)/],
      ['scenario', /give a scenario name/],
    ];
    for (const [prefer, message] of cases) {
      const res = await c.get('/v1/status').set(bearer(KEYS.free)).set('Prefer', prefer);
      expectError(res, 'bad_request', { param: 'Prefer', message });
    }
  });

  it('RFC 7240 §2: other preferences and unparsable ones are ignored', async () => {
    const c = client(makeApp());
    for (const prefer of ['respond-async', 'return=minimal', 'scenario=a b', 'wait=5, handling=strict']) {
      expect((await c.get('/v1/status').set(bearer(KEYS.free)).set('Prefer', prefer)).status).toBe(200);
    }
  });
});

describe('the request scenarios object (engine)', () => {
  it('contract §3.5: two requests matched while one use was left: the job created first takes it, the other completes normally', () => {
    const app = makeApp();
    const engine = app.sandbox.world.scenarios;
    engine.activate({ name: 'crawl-fails', times: 1 });
    const facts = { operation: crawlSite, accountId: ACCOUNTS.free, apiKeyId: 'key_free_default' };
    const first = engine.forRequest(facts);
    const second = engine.forRequest(facts);
    expect(second.jobDecision()).toMatchObject({ outcome: 'failed' });
    expect(first.jobDecision()).toBeUndefined();
    expect([first.scenarioIds(), second.scenarioIds()]).toEqual([[], ['scn_000001']]);
    expect(engine.list()).toEqual([]);
  });

  it('contract §3.5: a request counted for an activation keeps it for its job even when that use ended the activation', () => {
    const app = makeApp();
    const engine = app.sandbox.world.scenarios;
    engine.activate({ name: 'slow-responses', times: 1, params: { delay_ms: 0 } });
    engine.activate({ name: 'server-error', operation_id: 'getStatus' });
    const request = engine.forRequest({ operation: getStatus, accountId: ACCOUNTS.free, apiKeyId: 'key_free_default' });
    expect(request.plan(true)).toEqual({ delayMs: 0, answer: { error: { code: 'internal_error' } } });
    expect(request.scenarioIds()).toEqual(['scn_000002', 'scn_000001']);
    expect(engine.list().map((a) => a.name)).toEqual(['server-error']);
  });
});
