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
  private phase: 'open' | 'draining' | 'closing' = 'open';
  private closing: Promise<CloseReport> | undefined;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.pending.set(socket, []);
      socket.once('close', () => this.pending.delete(socket));
    });
    // First, before the app's listener: the response must be known before anything writes it.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.track(req.socket, res));
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

  private track(socket: Socket, res: ServerResponse): void {
    const responses = this.pending.get(socket);
    if (!responses) return;
    responses.push(res);
    this.keepAliveAsked.set(res, res.shouldKeepAlive);
    const settled = () => {
      const at = responses.indexOf(res);
      if (at === -1) return;
      responses.splice(at, 1);
      // Its last answer sent with keep-alive (written before closing began): close it now.
      if (this.phase === 'closing' && responses.length === 0) socket.destroySoon();
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
    for (const [socket, responses] of this.pending) if (responses.length === 0) socket.destroySoon();
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
