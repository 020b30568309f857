/** Message texts, named so tests assert the same strings the code sends (stripe-mock's habit). */

/** The 404 of a missing resource, whatever its kind (`resourceMissing`) and the admin API's unknown account. */
const noSuch = (kind: string, id: string) => `No such ${kind}: '${id}'.`;

export const MESSAGES = {
  authMissing: 'No API key provided. Send `Authorization: Bearer <API_KEY>`.',
  authMalformed: 'Malformed Authorization header. Expected `Authorization: Bearer <API_KEY>`.',
  authUnknown: 'Invalid API key provided.',
  authRevoked: 'This API key has been revoked.',
  authExpired: 'This API key has expired.',
  readOnlyKey: 'This API key is read-only and cannot perform writes.',
  bodyNotJson: 'Request bodies must be JSON: send `Content-Type: application/json`.',
  bodyMalformed: 'The request body is not valid JSON.',
  bodyNotObject: 'The request body must be a JSON object.',
  bodyTooDeep: (max: number) => `The request body nests objects or arrays more than ${max} levels deep.`,
  bodyTooLarge: (limit: string) => `The request body exceeds the ${limit} limit.`,
  bodyAborted: 'The request body ended before it was complete.',
  unsupportedCoding: (coding: string, supported: readonly string[]) =>
    `Unsupported Content-Encoding '${coding}'. Request bodies may be sent in: ${supported.join(', ')}.`,
  tooManyCodings: (count: number, max: number) => `The Content-Encoding header lists ${count} codings; at most ${max} are decoded.`,
  corruptCoding: (coding: string) => `The request body is not valid ${coding} data (Content-Encoding: ${coding}).`,
  wrappedBody: (key: string) =>
    `Received unknown parameter '${key}'. Request bodies are unwrapped: send the fields at the top level, not nested under '${key}'.`,
  unknownParameter: (name: string) => `Received unknown parameter: ${name}.`,
  bodylessRoute: (name: string) => `Received unknown parameter: ${name}. This call takes no body (send none, or {}).`,
  missingParameter: (name: string) => `Missing required parameter: ${name}.`,
  invalidQuery: (name: string, detail: string) => `Invalid value for '${name}': ${detail}.`,
  unknownCursor: (id: string) => `Invalid value for 'starting_after': no object with id '${id}' in this list.`,
  unknownJournalCursor: (id: string, param: 'starting_after' | 'ending_before' = 'starting_after') =>
    `Invalid value for '${param}': no request '${id}' in the journal (it may have been dropped: the journal keeps the last N).`,
  journalCursorsBoth: "Pass 'starting_after' (older entries) or 'ending_before' (newer entries), not both.",
  validationFailed: 'The request contains invalid data. See `errors` for the fields.',
  unknownRoute: (method: string, path: string) => `Unrecognized request URL (${method}: ${path}).`,
  methodNotAllowed: (method: string, path: string, allow: string) => `${method} is not allowed on ${path}. Allowed: ${allow}.`,
  unparsableRequest: 'The request is not valid HTTP/1.1 (method, target, version or a header).',
  hostRequired: 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).',
  connectUnsupported: 'CONNECT is not supported: this server is no proxy.',
  adminTokenRequired: 'This admin API needs the header X-Admin-Token with the configured admin token.',
  crossSiteOrigin: (origin: string) =>
    `The admin API does not answer web pages of other sites: Origin '${origin}' is not the sandbox's own origin.`,
  crossSiteHost: (host: string) =>
    `The admin API does not answer Host '${host}': use a loopback name or the bound address, or allow the name with --allowed-hosts.`,
  internal: 'An unexpected error occurred on our side. The request may be retried.',
  clockOutOfRange: (min: string, max: string) =>
    `must be from ${min} to ${max}: the instants with four-digit years, which every ISO 8601 parser reads`,
  noSuch,
  noSuchAccount: (id: string) => noSuch('account', id),
  unknownAccountCursor: (id: string) => `Invalid value for 'starting_after': no account '${id}' in the sandbox.`,
  accountClockSetting: 'must be shared, frozen, running, or an ISO 8601 instant with a time zone (e.g. 2026-01-01T00:00:00Z)',
  clockAdvancePast: (max: string, most: number) => `would move the clock past ${max}; at most ${most} from the clock's instant`,
  preferScenario: (detail: string) => `The scenario asked for in the Prefer header cannot be applied: ${detail}.`,
  rateLimited: 'Too many requests. Retry after the number of seconds in Retry-After.',
  crawlUrl: 'must be an absolute http or https URL',
  insufficientCredits: (needed: number, available: number) =>
    `Insufficient credits: this crawl may cost up to ${needed} credits and the account has ${available} available. Credits held by unfinished jobs are not available.`,
  idempotencyKeyLength: (max: number, got: number) => `The Idempotency-Key header must be 1 to ${max} characters long; got ${got}.`,
  idempotencyKeyEvicted: (key: string) =>
    `The first answer to this Idempotency-Key was dropped by the sandbox's idempotency budget within its 24 hours, so it is neither replayed nor run again. ` +
    `Use a new key, or raise --idempotency-budget / --idempotency-total-budget (key: '${key.length > 40 ? `${key.slice(0, 40)}…` : key}').`,
  idempotencyKeyReused: (key: string) =>
    `Keys for idempotent requests can only be used with the same method, path and body they were first used with. ` +
    `Use a new key for a different request (key: '${key.length > 40 ? `${key.slice(0, 40)}…` : key}').`,
} as const;
