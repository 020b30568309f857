/**
 * What an endpoint's `url` and `events` must be, wherever one comes from: `POST
 * /__admin/webhook_endpoints` (contract §4.3) and a loaded snapshot (contract §5.3). One check for
 * both, so a snapshot can never bring in an endpoint the route would refuse (credentials in its URL,
 * which the log and the dashboard would show; a URL of 100 KB; an event type listed twice).
 */
import { isEventType } from '../operations/event-types.js';
import { isAbsoluteHttpUrl } from '../operations/urls.js';

/** Characters of an endpoint's URL at most. */
export const MAX_ENDPOINT_URL_LENGTH = 2048;

export const WEBHOOK_URL_MESSAGE = 'must be an absolute http or https URL';

/** The first thing wrong with an endpoint's `url` and `events` (its member, relative: `url`, `events`, `events.2`), if any. */
export function endpointInputProblem(url: unknown, events: unknown): { member: string; message: string } | undefined {
  if (typeof url !== 'string' || url.length === 0) return { member: 'url', message: WEBHOOK_URL_MESSAGE };
  if (url.length > MAX_ENDPOINT_URL_LENGTH) return { member: 'url', message: `must be at most ${MAX_ENDPOINT_URL_LENGTH} characters` };
  // `user:password@` is refused, so a URL the log and the dashboard show holds no secret.
  if (!isAbsoluteHttpUrl(url) || hasCredentials(url)) return { member: 'url', message: WEBHOOK_URL_MESSAGE };
  if (!Array.isArray(events) || events.length === 0) return { member: 'events', message: 'must be a non-empty list of event types or "*"' };
  const seen = new Set<unknown>();
  for (const [index, type] of events.entries()) {
    if (type !== '*' && (typeof type !== 'string' || !isEventType(type)))
      return { member: `events.${index}`, message: 'must be "*" or an event type' };
    if (seen.has(type)) return { member: 'events', message: `lists ${JSON.stringify(type)} twice` };
    seen.add(type);
  }
  return undefined;
}

function hasCredentials(url: string): boolean {
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}
