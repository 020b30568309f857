/**
 * The journal's request and answer headers (contract §5.3): shown with credentials redacted (the
 * scheme and last four characters), as one object of lower-case names for the listing or as pairs
 * in the order sent for the HAR export, and weighed against the journal's byte budget.
 */

/** Header names whose values are credentials: the journal shows their scheme and last four characters (contract §5.3). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-admin-token']);

/**
 * `Bearer cc_test_…a1b2` → `Bearer …a1b2` (contract §5.3): the scheme and the token's last four
 * characters. A value without a scheme shows `…` and its last four; a token of four characters or
 * fewer shows none of them, since its last four would be the whole secret.
 */
export function redactCredential(value: string): string {
  const trimmed = value.trim();
  const space = trimmed.search(/\s/);
  const scheme = space === -1 ? '' : `${trimmed.slice(0, space)} `;
  const token = space === -1 ? trimmed : trimmed.slice(space).trim();
  return `${scheme}…${token.length > 4 ? token.slice(-4) : ''}`;
}

/** A header value as the journal shows it: credentials redacted, everything else as sent. */
export function shownHeaderValue(lowerCaseName: string, value: string): string {
  return CREDENTIAL_HEADERS.has(lowerCaseName) ? redactCredential(value) : value;
}

/**
 * A flat `[name, value, name, value…]` list (Node's `rawHeaders`, the writer's header list) as one
 * object of lower-case names, credentials redacted. A name sent twice is joined as Node joins it
 * (`cookie` with `; `, others with `, `).
 */
export function headerObject(flat: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!.toLowerCase();
    const value = shownHeaderValue(name, flat[i + 1]!);
    const before = headers[name];
    headers[name] = before === undefined ? value : `${before}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return headers;
}

/** The same list as `{name, value}` pairs in the order and case sent, credentials redacted (HAR's shape). */
export function headerPairs(flat: readonly string[]): Array<{ name: string; value: string }> {
  const pairs: Array<{ name: string; value: string }> = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    pairs.push({ name: flat[i]!, value: shownHeaderValue(flat[i]!.toLowerCase(), flat[i + 1]!) });
  return pairs;
}

/** What a flat header list weighs: 3 bytes a unit at most, as short bodies are weighed (src/protocol/text-bytes.ts). */
export function weighHeaders(flat: readonly string[]): number {
  let units = 0;
  for (let i = 0; i < flat.length; i += 1) units += flat[i]!.length;
  return units * 3;
}
