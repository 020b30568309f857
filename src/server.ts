/** `startMockServer(options)`: the app on a real socket, for test setups that need a URL. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminClient } from './admin/client.js';
import { API_PREFIX, createApp, type CreateAppOptions, type MockApp } from './app.js';
import { GracefulClose, type CloseReport } from './graceful-close.js';
import { answerClientErrors, requireHostHeader } from './http/client-error.js';
import { coverageView } from './admin/coverage-operations.js';
import { findingsSettled, reportFindingsOf } from './report/findings-source.js';
import { writeReport } from './report/report.js';
import { warmUp } from './warm-up.js';

export type { CloseReport };

export interface MockServer {
  /** Base URL to connect to, e.g. `http://127.0.0.1:54321` (loopback when bound to all interfaces). */
  url: string;
  /** The address actually bound, e.g. `http://0.0.0.0:4010`: what the CLI's listening line says. */
  boundUrl: string;
  /** `url + '/v1'`. */
  apiUrl: string;
  port: number;
  admin: AdminClient;
  app: MockApp;
  server: Server;
  /**
   * Stops accepting connections, answers every request already received (the last one of each
   * connection with `Connection: close`), then resolves. Requests still unanswered after the
   * `shutdownGrace` period are cut; the report counts them. Every call returns the same report.
   */
  close(): Promise<CloseReport>;
}

export async function startMockServer(options: CreateAppOptions = {}): Promise<MockServer> {
  const app = createApp(options);
  const { port, host } = app.sandbox.options;
  const nextRequestId = () => app.sandbox.world.requestIds.next();
  const handle = app.callback();
  // Node's own Host check answers bare text: `requireHostHeader` answers it in the envelope instead.
  // Koa answers every failure itself (the promise never rejects): nothing to wait for here.
  const server = createServer(
    { requireHostHeader: false },
    requireHostHeader(nextRequestId, (req, res) => void handle(req, res)),
  );
  const graceful = new GracefulClose(server);
  let closing: Promise<CloseReport> | undefined;
  answerClientErrors(server, { nextRequestId, answerAhead: (socket) => graceful.answerAhead(socket) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Listening: what the first requests do not need (faker, ajv, the validators) is prepared now, in idle slices.
  const background = warmUp();
  const address = server.address() as AddressInfo;
  const bound = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // "All interfaces" is no address to connect to: the same machine's loopback reaches it.
  const reachable = bound === '0.0.0.0' ? '127.0.0.1' : bound === '[::]' ? '[::1]' : bound;
  const url = `http://${reachable}:${address.port}`;
  return {
    url,
    boundUrl: `http://${bound}:${address.port}`,
    apiUrl: `${url}${API_PREFIX}`,
    port: address.port,
    admin: new AdminClient(url, app.sandbox.options.adminToken),
    app,
    server,
    close: () => {
      background.stop();
      // Held on purpose (`no-response`), not in flight: closed at once rather than waited for.
      app.heldConnections.closeAll();
      // Artificial delays end now and their requests are answered (contract §1: in-flight requests finish).
      app.delays.endAll();
      // Webhooks stop at once: attempts in flight are aborted, retries never waited for (contract §4.3).
      app.sandbox.world.close();
      // The report once the requests received have finished, so it counts them; once, however often close is called.
      return (closing ??= closeThenReport(app, graceful));
    },
  };
}

/**
 * Closes, then writes the report. Closing ends when every connection has (a body still arriving for
 * an early answer included); the findings of requests answered by then may still be being judged
 * (a late body is judged when it has arrived): they are waited for, within what is left of the
 * grace period, so the whole close stays within it (the CLI exits at the latest a second after it).
 */
async function closeThenReport(app: MockApp, graceful: GracefulClose): Promise<CloseReport> {
  const graceMs = app.sandbox.options.shutdownGraceMs;
  const started = performance.now();
  const report = await graceful.close(graceMs);
  if (app.sandbox.options.report !== undefined) {
    await findingsSettled(app.sandbox.world, graceMs - (performance.now() - started));
    writeReportOnClose(app);
  }
  return report;
}

/**
 * Contract §5.2: with `report` set, the report file and a summary line per rule that fired on stderr.
 * Findings are the findings world module's when the world has one (src/report/findings-source.ts).
 */
export function writeReportOnClose(app: MockApp): void {
  const file = app.sandbox.options.report;
  if (file === undefined) return;
  const { world } = app.sandbox;
  try {
    const written = writeReport(file, {
      findings: () => reportFindingsOf(world),
      coverage: () => coverageView(world, app.openapi.document(), null),
    });
    for (const line of written.lines) process.stderr.write(`${line}\n`);
  } catch (error) {
    // Closing still completes: the server is down either way; the line says what was lost.
    process.stderr.write(`creator-commerce-mock: could not write the report to ${file}: ${(error as Error).message}\n`);
  }
}
