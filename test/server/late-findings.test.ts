/**
 * Contract §5.2 with §5: the `--report` file written on SIGTERM holds the findings of requests still
 * in flight when the signal came: a request answered early (a scenario's 500, before the operation
 * read its body) whose body was still arriving counts in "the same request" once it has arrived,
 * and closing waits for it (within the shutdown grace period) before writing the report. No timing
 * is asserted: the rest of the body is sent only once the server has stopped accepting connections,
 * which is after closing began.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../support/cli.js';
import { RawConnection } from '../support/raw-http.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ccm-late-findings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let running: RunningCli | undefined;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = undefined;
});

const TOKEN = 'cc_test_free_default_key';
const BODY = '{"name":"ci key"}';

/** Resolves once a new connection to `port` is refused: the server has closed its listening socket. */
async function stoppedAccepting(port: number): Promise<void> {
  for (;;) {
    try {
      const probe = await RawConnection.open(port);
      probe.socket.destroy();
      await new Promise((resolve) => setImmediate(resolve));
    } catch {
      return;
    }
  }
}

describe('contract §5.2: the report waits for late findings at close', () => {
  it('§5.2: a request whose body is still arriving at SIGTERM has its finding in the report', async () => {
    const file = path.join(dir, 'report.json');
    running = await startCli(['--port', '0', '--clock', 'frozen', '--report', file, '--shutdown-grace', '1500']);
    const port = Number(new URL(running.url).port);
    const json = { 'content-type': 'application/json' };
    const scenario = { name: 'server-error', account_id: 'acct_free_default', times: 2 };
    expect(
      (await fetch(`${running.url}/__admin/scenarios`, { method: 'POST', headers: json, body: JSON.stringify(scenario) })).status,
    ).toBe(201);
    const headers = { ...json, authorization: `Bearer ${TOKEN}` };
    expect((await fetch(`${running.url}/v1/auth/keys`, { method: 'POST', headers, body: BODY })).status).toBe(500);

    // The same request again, without Idempotency-Key: the scenario answers it before its body is read.
    const connection = await RawConnection.open(port);
    connection.send(
      `POST /v1/auth/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 5)}`,
    );
    const [early] = await connection.waitFor(1);
    expect(early?.status).toBe(500);

    running.child.kill('SIGTERM');
    await stoppedAccepting(port);
    // Closing has begun: the connection is still open for the body, which arrives now.
    expect(connection.ended).toBeUndefined();
    connection.send(BODY.slice(5));
    expect(await running.exited).toBe(0);

    const report = JSON.parse(readFileSync(file, 'utf8')) as { findings: Array<{ rule: string; request_ids: string[] }> };
    expect(report.findings.map((finding) => finding.rule)).toEqual(['write-retried-without-idempotency-key']);
    expect(report.findings[0]!.request_ids).toHaveLength(2);
    expect(running.output()).toMatch(/creator-commerce-mock report: write-retried-without-idempotency-key/);
  });
});
