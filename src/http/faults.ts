/**
 * Transport faults (contract §4.2): how an answer is lost on the way, acted out on the socket in
 * place of `sendReply`'s write. Each acts on its own request's connection only: the other
 * connections of the server, and the middleware pipelines of their requests, never see it.
 *
 * - `connection-reset`: a TCP RST (`resetAndDestroy`), no byte sent.
 * - `empty-response`: the request is read to its end, then the connection is closed (FIN) with no
 *   byte sent. Reading first matters: closing a socket with unread bytes makes the kernel send a
 *   reset instead, which is the other fault.
 * - `truncated-response`: the status line and headers with the full `Content-Length`, the first
 *   half of the body, then a close.
 * - `no-response`: nothing; the connection is held (one timer per held request, cleared when the
 *   client gives up first) and closed after `after_ms`, or at once when the server closes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FaultEffect } from '../scenarios/fault-effect.js';
import type { SandboxContext } from './context.js';
import { writeHead, type HeaderList, type Reply } from './wire.js';

/** True when the fault left no answer to speak of: before the operation, and no cut status line either. */
export function answeredNothing(fault: FaultEffect | undefined): boolean {
  return fault !== undefined && fault.when === 'before' && fault.type !== 'truncated-response';
}

/**
 * Connections held by `no-response`, each with the timer that closes it. One per app (it outlives
 * resets: a held connection belongs to the server, not to a world), closed all at once when the
 * server closes, so a held request never delays shutdown.
 */
export class HeldConnections {
  private readonly held = new Map<Socket, NodeJS.Timeout>();
  private closed = false;

  /** How many connections are held right now (tests check nothing is left behind). */
  get size(): number {
    return this.held.size;
  }

  hold(socket: Socket, ms: number, close: () => void): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => {
      this.release(socket);
      close();
    }, ms);
    this.held.set(socket, timer);
    // The client gave up first (or anything else closed it): nothing is left to close.
    socket.once('close', () => this.release(socket));
  }

  /** Closes every held connection and holds no more (the server is closing). */
  closeAll(): void {
    this.closed = true;
    for (const socket of [...this.held.keys()]) {
      this.release(socket);
      socket.destroy();
    }
  }

  private release(socket: Socket): void {
    const timer = this.held.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.held.delete(socket);
  }
}

/** Runs `then` once the request has been read to its end (or its connection closed). */
function whenRequestRead(req: IncomingMessage, then: () => void): void {
  if (req.complete || req.destroyed) {
    then();
    return;
  }
  const done = () => {
    req.off('end', done).off('close', done);
    then();
  };
  req.once('end', done).once('close', done);
  // Unread bytes are discarded; a reader already attached (the journal's) still gets them.
  req.resume();
}

/** Closes without a reset: the request read, a FIN once what was written has left. */
function closeQuietly(req: IncomingMessage, socket: Socket): void {
  whenRequestRead(req, () => {
    if (!socket.destroyed) socket.end();
  });
}

function reset(socket: Socket): void {
  // A TCP RST where the socket is TCP (Node >= 18.3); otherwise (a pipe) a plain destroy.
  if (typeof socket.resetAndDestroy === 'function' && socket.remoteAddress !== undefined) socket.resetAndDestroy();
  else socket.destroy();
}

/** Headers with the full Content-Length, then the first half of the body (an answer without one: headers only), then a close. */
function truncate(
  req: IncomingMessage,
  res: ServerResponse,
  socket: Socket,
  method: string,
  answer: Reply | undefined,
  headers: HeaderList,
): void {
  if (!answer) {
    closeQuietly(req, socket);
    return;
  }
  const text = writeHead(res, answer, headers);
  const body = method === 'HEAD' || text === undefined ? Buffer.alloc(0) : Buffer.from(text);
  const part = body.subarray(0, Math.floor(body.length / 2));
  whenRequestRead(req, () => {
    if (socket.destroyed) return;
    // The callback runs once the bytes have left for the kernel: only then is a FIN sure to follow them.
    if (part.length > 0) res.write(part, () => socket.end());
    else {
      res.flushHeaders();
      socket.end();
    }
  });
}

/** Acts the fault out instead of writing the answer; `answer` is the one lost (undefined before the operation). */
export function loseAnswer(
  ctx: SandboxContext,
  fault: FaultEffect,
  answer: Reply | undefined,
  headers: HeaderList,
  held: HeldConnections,
): void {
  const { req, res } = ctx;
  const socket = req.socket as Socket | null;
  // No real connection (an in-process transport) or one already gone: all there is to do is cut it.
  if (!socket || socket.destroyed || typeof socket.end !== 'function') {
    res.destroy();
    return;
  }
  switch (fault.type) {
    case 'connection-reset':
      reset(socket);
      return;
    case 'empty-response':
      closeQuietly(req, socket);
      return;
    case 'truncated-response':
      truncate(req, res, socket, ctx.method, answer, headers);
      return;
    case 'no-response':
      held.hold(socket, fault.afterMs, () => closeQuietly(req, socket));
      return;
  }
}
