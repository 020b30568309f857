/**
 * The bytes of an answer on the wire, below the middlewares: the staged header list, the reply and
 * the one `writeHead` that writes them. Both writers of a response use it: `sendReply`
 * (src/http/reply.ts) for an answer that leaves whole, and the transport faults (src/http/faults.ts)
 * for one cut on the way, so neither has to hand the other its writer.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';

/** Lower-cased header names, memoized: nearly every name is one of a dozen constants. */
const lowerCaseNames = new Map<string, string>();

function lowerCaseName(name: string): string {
  let lower = lowerCaseNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    // Bounded: names come from code and fixtures, but a scenario file could bring many.
    if (lowerCaseNames.size < 1024) lowerCaseNames.set(name, lower);
  }
  return lower;
}

/** Response headers in the order they were first set; setting a name again (any case) replaces it. */
export class HeaderList {
  /** name, value, name, value…: what `writeHead` takes. */
  readonly flat: string[] = [];
  /** The lower-cased name of each pair in `flat`, for case-insensitive lookups without lower-casing per call. */
  private readonly keys: string[] = [];

  set(name: string, value: string): void {
    const key = lowerCaseName(name);
    const at = this.keys.indexOf(key);
    if (at === -1) {
      this.keys.push(key);
      this.flat.push(name, value);
    } else {
      this.flat[2 * at + 1] = value;
    }
  }

  setAll(headers: Readonly<Record<string, string>>): void {
    for (const name in headers) this.set(name, headers[name]!);
  }

  get(name: string): string | undefined {
    const at = this.keys.indexOf(lowerCaseName(name));
    return at === -1 ? undefined : this.flat[2 * at + 1];
  }

  /** Lower-cased names, as Node reports response headers. */
  toObject(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (let i = 0; i < this.keys.length; i += 1) headers[this.keys[i]!] = this.flat[2 * i + 1]!;
    return headers;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Statuses that never carry a body (RFC 9110 §6.4.1, §15.4.5). */
const BODILESS = new Set([204, 205, 304]);

/** The answer of a request: a status and a JSON value, or a string already serialized. */
export interface Reply {
  status: number;
  body: unknown;
  /** `body` serialized already (an operation's compiled serializer); JSON.stringify otherwise. */
  text?: string;
}

/** The bytes of an answer's body, serialized once; undefined when it has none. */
export function replyText(answer: Reply): string | undefined {
  const { status, body } = answer;
  if (body === undefined || BODILESS.has(status)) return undefined;
  return (answer.text ??= typeof body === 'string' ? body : JSON.stringify(body));
}

/** Writes the status line and headers of `answer` (Content-Type and Content-Length added); returns the body's text. */
export function writeHead(res: ServerResponse, answer: Reply, headers: HeaderList): string | undefined {
  const status = answer.status;
  const text = replyText(answer);
  if (text !== undefined) {
    headers.set('Content-Type', JSON_TYPE);
    headers.set('Content-Length', String(Buffer.byteLength(text)));
  } else if (!BODILESS.has(status)) {
    headers.set('Content-Length', '0');
  }
  res.writeHead(status, STATUS_CODES[status], headers.flat);
  return text;
}
