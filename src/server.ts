/** `startMockServer(options)`: the app on a real socket, for test setups that need a URL. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminClient } from './admin/client.js';
import { API_PREFIX, createApp, type CreateAppOptions, type MockApp } from './app.js';

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
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

const FORCE_CLOSE_AFTER_MS = 1500;

export async function startMockServer(options: CreateAppOptions = {}): Promise<MockServer> {
  const app = createApp(options);
  const { port, host } = app.sandbox.options;
  const server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const bound = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // "All interfaces" is no address to connect to: the same machine's loopback reaches it.
  const reachable = bound === '0.0.0.0' ? '127.0.0.1' : bound === '[::]' ? '[::1]' : bound;
  const url = `http://${reachable}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    boundUrl: `http://${bound}:${address.port}`,
    apiUrl: `${url}${API_PREFIX}`,
    port: address.port,
    admin: new AdminClient(url, app.sandbox.options.adminToken),
    app,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // In-flight requests finish; idle keep-alive sockets close now, stragglers after a grace period.
        const force = setTimeout(() => server.closeAllConnections(), FORCE_CLOSE_AFTER_MS);
        force.unref();
        // A keep-alive socket whose request finishes after close() starts is idle only then: sweep.
        const sweep = setInterval(() => server.closeIdleConnections(), 25);
        sweep.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
