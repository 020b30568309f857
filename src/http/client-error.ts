/**
 * Requests Node's HTTP parser refuses before the app ever sees them (a bad method or header, headers
 * over the size limit, a request that took too long to arrive). Node answers those itself, as bare
 * text without the envelope or a `Request-Id`; the server's `clientError` hook answers them here
 * instead, in the envelope, with the next id of the sandbox's request-id counter (deterministic:
 * ids stay in arrival order with the requests around them).
 *
 * This is the one place an error is written outside the envelope middleware: Koa never runs for
 * these requests. The body still comes from ApiError, so it has the envelope's exact shape. No
 * rate-limit headers and no journal entry: no path, key or operation is known.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';

/** The envelope's error for what Node's HTTP parser refused (no request object exists yet). */
function parserRefusal(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout');
    default:
      return new ApiError('bad_request', { message: MESSAGES.unparsableRequest });
  }
}

export interface ClientErrorOptions {
  nextRequestId: () => string;
  /** True while an answer of this connection is pending: writing ours then would come out of order. */
  answering: (socket: Duplex) => boolean;
}

export function answerClientErrors(server: Server, options: ClientErrorOptions): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or a closed socket has no one to answer; an answer already under way must not be corrupted.
    if (error.code === 'ECONNRESET' || !socket.writable || options.answering(socket)) {
      socket.destroy();
      return;
    }
    const apiError = parserRefusal(error);
    const id = options.nextRequestId();
    const text = JSON.stringify(apiError.toBody());
    const head = [
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(text)}`,
      `Request-Id: ${id}`,
      `X-Request-Id: ${id}`,
      // The parser cannot go on from a malformed request: nothing after it on this connection is readable.
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
    socket.once('finish', () => socket.destroy());
  });
}
