/**
 * Closing a server without dropping requests (contract §1: "in-flight requests finish").
 *
 * Node's `server.close()` destroys every connection its parser calls idle. A keep-alive connection
 * whose next request is already in the socket's buffer, but not yet read because the process was
 * busy, counts as idle: the client gets ECONNRESET for a request it had fully sent. So closing:
 *
 * 1. lets the event loop turn a few times first: requests already received are read and parsed
 *    (a turn reads what accepted sockets hold; a connection still in the accept queue needs one turn
 *    to be accepted and one more to be read);
 * 2. meanwhile and after, answers every request, the last one known on each connection with
 *    `Connection: close` (earlier pipelined ones keep the connection open, or the ones behind them
 *    would be lost), so each connection closes after its last answer;
 * 3. then stops accepting and closes the connections with nothing pending;
 * 4. after the grace period, destroys what is left and reports how many requests that cut.
 *
 * A request answered before its body was read (a scenario's early answer) is still in flight while
 * its body arrives: the traffic watchers read it late, and a finding may depend on it (contract §5:
 * "the body of a request answered early still counts"). Its connection stays open until the body
 * has arrived (or the grace period ends): closing resolves once every connection has closed, so
 * the `--report` file written then holds the findings of such requests. One answered early once
 * closing has begun says `Connection: close` like any last answer, and Node ends its connection
 * with it: its body, if still on its way, is not waited for.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface CloseReport {
  /** Requests received but not answered when the grace period ended. */
  cut: number;
}

/** See the header: one for arriving at the poll phase, one to accept, one to read. */
const LOOP_TURNS_BEFORE_CLOSING = 3;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class GracefulClose {
  /** Per connection, the responses of requests received on it and not yet finished, in order. */
  private readonly pending = new Map<Socket, ServerResponse[]>();
  /** Whether the client asked to keep each connection alive (restored on responses that are not last). */
  private readonly keepAliveAsked = new WeakMap<ServerResponse, boolean>();
  /** Per connection, requests answered whose body is still arriving. */
  private readonly arriving = new Map<Socket, Set<IncomingMessage>>();
  private phase: 'open' | 'draining' | 'closing' = 'open';
  private closing: Promise<CloseReport> | undefined;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.pending.set(socket, []);
      socket.once('close', () => {
        this.pending.delete(socket);
        this.arriving.delete(socket);
      });
    });
    // First, before the app's listener: the response must be known before anything writes it.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.track(req.socket, req, res));
  }

  /** Whether the connection has nothing left to do: no answer pending, no body arriving. */
  private done(socket: Socket): boolean {
    return (this.pending.get(socket)?.length ?? 0) === 0 && !this.arriving.has(socket);
  }

  /**
   * After its answer, a request whose body is still coming in keeps its connection: the late read
   * of an early answer needs the rest of it (a body Node discards unread is waited for alike; the
   * grace period bounds both).
   */
  private watchLateBody(socket: Socket, req: IncomingMessage): void {
    if (req.complete || req.destroyed || req.readableFlowing !== true) return;
    let bodies = this.arriving.get(socket);
    if (!bodies) this.arriving.set(socket, (bodies = new Set()));
    bodies.add(req);
    const arrived = () => {
      req.off('end', arrived).off('close', arrived).off('error', arrived);
      const left = this.arriving.get(socket);
      if (!left?.delete(req)) return;
      if (left.size === 0) this.arriving.delete(socket);
      if (this.phase === 'closing' && this.done(socket)) socket.destroySoon();
    };
    req.once('end', arrived).once('close', arrived).once('error', arrived);
  }

  /**
   * True while an answer is under way on this connection, or one is pending ahead of the request
   * being read (the last one received): an answer written now would come out of order.
   */
  answerAhead(socket: unknown): boolean {
    const responses = this.pending.get(socket as Socket) ?? [];
    return responses.length > 1 || responses.some((res) => res.headersSent);
  }

  /** Idempotent: every caller gets the same report. */
  close(graceMs: number): Promise<CloseReport> {
    this.closing ??= this.run(graceMs);
    return this.closing;
  }

  private track(socket: Socket, req: IncomingMessage, res: ServerResponse): void {
    const responses = this.pending.get(socket);
    if (!responses) return;
    responses.push(res);
    this.keepAliveAsked.set(res, res.shouldKeepAlive);
    const settled = () => {
      const at = responses.indexOf(res);
      if (at === -1) return;
      responses.splice(at, 1);
      this.watchLateBody(socket, req);
      // Its last answer sent with keep-alive (written before closing began): close it now.
      if (this.phase === 'closing' && this.done(socket)) socket.destroySoon();
    };
    res.once('finish', settled).once('close', settled);
    // Pipelined requests read together are all known before any of them is answered (answers are
    // written a microtask later at the earliest), so "the last one known" is the last one sent.
    if (this.phase !== 'open') this.closeAfterLast(responses);
  }

  /** The last unwritten answer of a connection says `Connection: close` (Node then ends the socket). */
  private closeAfterLast(responses: readonly ServerResponse[]): void {
    responses.forEach((res, i) => {
      if (!res.headersSent) res.shouldKeepAlive = i === responses.length - 1 ? false : (this.keepAliveAsked.get(res) ?? false);
    });
  }

  private async run(graceMs: number): Promise<CloseReport> {
    this.phase = 'draining';
    for (const responses of this.pending.values()) this.closeAfterLast(responses);
    for (let turn = 0; turn < LOOP_TURNS_BEFORE_CLOSING; turn += 1) await nextTurn();
    this.phase = 'closing';
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.pending.keys()) if (this.done(socket)) socket.destroySoon();
    let cut = 0;
    const graceEnds = setTimeout(() => {
      for (const [socket, responses] of this.pending) {
        cut += responses.length;
        socket.destroy();
      }
    }, graceMs);
    await stopped;
    clearTimeout(graceEnds);
    return { cut };
  }
}
