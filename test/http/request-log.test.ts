/** Logging is quiet by default; `--log` prints one line per request. */
import { describe, expect, it } from 'vitest';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';

describe('request logging', () => {
  it('prints one line per request with request id, method, path, status and duration when log is on', async () => {
    const lines: string[] = [];
    const app = makeApp({ log: true, logWriter: (line) => lines.push(line) });
    await client(app).get('/v1/status').set(bearer(KEYS.free));
    await client(app).post('/v1/auth/keys').set(bearer(KEYS.free)).send({ name: 42 });
    await client(app).get('/__admin/health');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^req_000000000001 GET \/v1\/status 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^req_000000000002 POST \/v1\/auth\/keys 422 \d+\.\dms$/);
    expect(lines[2]).toMatch(/^req_000000000003 GET \/__admin\/health 200 /);
  });

  it('writes nothing by default', async () => {
    const lines: string[] = [];
    const app = makeApp({ logWriter: (line) => lines.push(line) });
    await client(app).get('/v1/status').set(bearer(KEYS.free));
    expect(lines).toEqual([]);
  });
});
