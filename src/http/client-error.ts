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
import { STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
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
  /**
   * True while an answer ahead of the request being read is pending or under way on this connection:
   * writing ours then would come out of order or corrupt it. (The request being read itself, not
   * answered yet, does not count: its body is what broke, and ours is its answer.)
   */
  answerAhead: (socket: Duplex) => boolean;
}

/** The envelope of `error` as raw HTTP/1.1 on `socket`, then the connection closes. */
function writeRawError(socket: Duplex, apiError: ApiError, id: string): void {
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
}

export function answerClientErrors(server: Server, options: ClientErrorOptions): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or a closed socket has no one to answer; an answer already under way must not be corrupted.
    if (error.code === 'ECONNRESET' || !socket.writable || options.answerAhead(socket)) {
      socket.destroy();
      return;
    }
    writeRawError(socket, parserRefusal(error), options.nextRequestId());
  });
  // CONNECT asks for a tunnel; without a listener Node drops the connection without a word.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    writeRawError(socket, new ApiError('bad_request', { message: MESSAGES.connectUnsupported }), options.nextRequestId());
  });
  // An Expect other than 100-continue: RFC 9110 §10.1.1 lets a server ignore it, and a sandbox that
  // refuses what the real service may serve fails the client. Served like any request.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
}

/**
 * HTTP/1.1 requires `Host` (RFC 9112 §3.2: answer 400 without one). Node checks it itself and
 * answers bare; the server turns that check off and this wrapper answers in the envelope instead.
 */
export function requireHostHeader(nextRequestId: () => string, handler: RequestListener): RequestListener {
  return function hostRequired(req, res) {
    if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return handler(req, res);
    const apiError = new ApiError('bad_request', { message: MESSAGES.hostRequired });
    const text = JSON.stringify(apiError.toBody());
    const id = nextRequestId();
    res.shouldKeepAlive = false;
    res.writeHead(apiError.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Request-Id': id,
      'X-Request-Id': id,
    });
    res.end(text);
  };
}
