/** The Scenarios page (docs/scenarios.md): its first examples work as written (a newcomer copies them). */
import { describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { client, makeApp } from '../support/harness.js';
import { mockServers } from '../support/protocol.js';
import { docPage } from '../support/docs.js';

const section = docPage('scenarios');

/** The first fenced block of `lang` in the section. */
function firstBlock(lang: string): string {
  const start = section.indexOf(`\`\`\`${lang}\n`) + lang.length + 4;
  return section.slice(start, section.indexOf('```', start));
}

describe('docs/scenarios.md', () => {
  it('contract §3.5: the copy-paste curl lines force a 429 with Retry-After 2 on the next request only', async () => {
    const api = client(makeApp());
    const lines = firstBlock('sh')
      .split('\n')
      .filter((line) => line.startsWith('curl '));
    expect(lines).toHaveLength(2);
    const results = [];
    for (const line of lines) {
      const path = /http:\/\/127\.0\.0\.1:4010(\/\S+)/.exec(line)![1]!;
      const headers = Object.fromEntries([...line.matchAll(/-H '([^:]+): ([^']+)'/g)].map((m) => [m[1]!, m[2]!]));
      const body = / -d '([^']*)'/.exec(line)?.[1];
      const req = (body === undefined ? api.get(path) : api.post(path)).set(headers);
      results.push(await (body === undefined ? req : req.send(body)));
    }
    expect(results[0]!.status).toBe(201);
    expect([results[1]!.status, results[1]!.headers['retry-after']]).toEqual([429, '2']);
    expect((await api.get('/v1/status').set('Authorization', 'Bearer cc_test_free_default_key')).status).toBe(200);
  });

  const start = mockServers();

  it("contract §3.5: the three-line TypeScript example answers 429 on the new tenant with a Retry-After a client can honour within vitest's default 5 s test timeout, then 200", async () => {
    const mock = await start({});
    const code = firstBlock('ts');
    expect(code.trim().split('\n')).toHaveLength(3);
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => (mock: MockServer) => Promise<{ res: Response; token: string }>;
    const run = new AsyncFunction('mock', `${code}\nreturn { res, token: api_key.token };`);
    const { res, token } = await run(mock);
    expect(res.status).toBe(429);
    // A client that honours Retry-After sleeps this long before its retry, inside the test that runs it.
    const VITEST_DEFAULT_TEST_TIMEOUT_S = 5;
    expect(Number(res.headers.get('retry-after'))).toBeLessThan(VITEST_DEFAULT_TEST_TIMEOUT_S);
    expect((await fetch(`${mock.apiUrl}/status`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});
