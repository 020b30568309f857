/** Contract §1: the listening line says the address actually bound; `url` stays one to connect to. */
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../support/cli.js';
import { startServer } from '../support/harness.js';

let running: RunningCli | undefined;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = undefined;
});

describe('the listening line names the bound address', () => {
  it('says http://0.0.0.0:PORT when bound to all interfaces, and the API answers there', async () => {
    running = await startCli(['--port', '0'], { HOST: '0.0.0.0' });
    expect(running.firstLine).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+ /);
    const port = /:(\d+) /.exec(running.firstLine)![1];
    // The api and admin addresses in the same line are ones to connect to.
    expect(running.firstLine).toContain(`api http://127.0.0.1:${port}/v1`);
    const res = await fetch(`http://127.0.0.1:${port}/v1/status`, { headers: { Authorization: 'Bearer cc_test_free_default_key' } });
    expect(res.status).toBe(200);
  });

  it('says http://127.0.0.1:PORT when bound to loopback (the default)', async () => {
    running = await startCli(['--port', '0']);
    expect(running.firstLine).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ /);
  });

  it('startMockServer: boundUrl is what is bound, url a loopback address to connect to', async () => {
    const mock = await startServer({ host: '0.0.0.0' });
    try {
      expect(mock.boundUrl).toBe(`http://0.0.0.0:${mock.port}`);
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      expect(await mock.admin.health()).toEqual({ status: 'ok' });
    } finally {
      await mock.close();
    }
  });
});
