/**
 * The `Prefer` request header of RFC 7240, parsed by its grammar rather than by a regular expression:
 *
 *   Prefer     = 1#preference
 *   preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] )
 *   parameter  = token [ BWS "=" BWS word ]
 *   word       = token / quoted-string
 *
 * so `Prefer: respond-async, scenario="rate-limited"; retry_after=5` is two preferences, the second
 * with a value and one parameter. Names are case-insensitive (lowercased here); values are kept as
 * sent, quotes and escapes removed. Several Prefer headers are one list (Node joins them with ", ").
 * A malformed element is skipped, as RFC 9110 §5.6.1 lets recipients skip what they cannot parse;
 * when a preference is given twice only the first counts (RFC 7240 §2).
 */

export interface Preference {
  /** Lowercased token, e.g. `scenario`. */
  name: string;
  /** The value after `=`, unquoted; undefined when none was given. */
  value: string | undefined;
  /** Parameters in order; names lowercased, values unquoted (undefined when none was given). */
  params: Array<[name: string, value: string | undefined]>;
}

// RFC 9110 §5.6.2 tchar.
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const WHITESPACE = /[ \t]/;

/** A small cursor over the header text. */
class Reader {
  position = 0;
  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.position >= this.text.length;
  }

  peek(): string {
    return this.text[this.position] ?? '';
  }

  skipWhitespace(): void {
    while (WHITESPACE.test(this.peek())) this.position += 1;
  }

  token(): string | undefined {
    const start = this.position;
    while (!this.done && TCHAR.test(this.peek())) this.position += 1;
    return this.position > start ? this.text.slice(start, this.position) : undefined;
  }

  /** A quoted-string (RFC 9110 §5.6.4): `"…"` with `\\` escaping the next character. */
  quoted(): string | undefined {
    if (this.peek() !== '"') return undefined;
    let out = '';
    for (this.position += 1; !this.done; this.position += 1) {
      const c = this.peek();
      if (c === '"') {
        this.position += 1;
        return out;
      }
      if (c === '\\') this.position += 1;
      out += this.peek();
    }
    return undefined;
  }

  word(): string | undefined {
    return this.peek() === '"' ? this.quoted() : this.token();
  }

  /** Skips to just after the next top-level comma (quoted commas do not count). */
  skipElement(): void {
    while (!this.done) {
      if (this.peek() === '"') {
        if (this.quoted() === undefined) return;
        continue;
      }
      this.position += 1;
      if (this.text[this.position - 1] === ',') return;
    }
  }
}

/** `token [BWS "=" BWS word]`; undefined when malformed. */
function nameAndValue(reader: Reader): { name: string; value: string | undefined } | undefined {
  const name = reader.token();
  if (name === undefined) return undefined;
  reader.skipWhitespace();
  if (reader.peek() !== '=') return { name: name.toLowerCase(), value: undefined };
  reader.position += 1;
  reader.skipWhitespace();
  const value = reader.word();
  return value === undefined ? undefined : { name: name.toLowerCase(), value };
}

/** One preference starting at the reader's position, up to (not past) the next comma; undefined when malformed. */
function preference(reader: Reader): Preference | undefined {
  const head = nameAndValue(reader);
  if (!head) return undefined;
  const params: Preference['params'] = [];
  for (;;) {
    reader.skipWhitespace();
    if (reader.done || reader.peek() === ',') return { ...head, params };
    if (reader.peek() !== ';') return undefined;
    reader.position += 1;
    reader.skipWhitespace();
    // `;` may be followed by nothing (the grammar's `[ OWS parameter ]`).
    if (reader.done || reader.peek() === ',' || reader.peek() === ';') continue;
    const param = nameAndValue(reader);
    if (!param) return undefined;
    params.push([param.name, param.value]);
  }
}

/** Every well-formed preference of the header, the first of each name only. */
export function parsePrefer(header: string | readonly string[] | undefined): Preference[] {
  if (header === undefined) return [];
  const reader = new Reader(typeof header === 'string' ? header : header.join(', '));
  const found = new Map<string, Preference>();
  while (!reader.done) {
    reader.skipWhitespace();
    if (reader.peek() === ',') {
      reader.position += 1;
      continue;
    }
    const start = reader.position;
    const parsed = preference(reader);
    if (parsed && (reader.done || reader.peek() === ',')) {
      if (!found.has(parsed.name)) found.set(parsed.name, parsed);
      if (!reader.done) reader.position += 1;
    } else {
      reader.position = start;
      reader.skipElement();
    }
  }
  return [...found.values()];
}

/** A value as a `word`: bare when it is a token, else a quoted-string. */
export function formatWord(value: string): string {
  return value !== '' && [...value].every((c) => TCHAR.test(c)) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
