/**
 * Who may call the admin API (contract §3). Two middlewares, run on every request under /__admin
 * (known path or not) before any route:
 *
 * - `adminSameSite` refuses what a web page of another site can send: a request whose `Origin` is
 *   not the sandbox's own, and (DNS rebinding: evil.example resolved to 127.0.0.1) a request whose
 *   `Host` is not a name this sandbox answers to. Without it any page open in the user's browser could
 *   reset the sandbox with a "simple" cross-site POST, token or not.
 * - `adminAuth` checks `X-Admin-Token` when one is configured, in constant time.
 *
 * Both come after the request id and inside the error envelope, so refusals are ordinary envelopes.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { ApiError } from '../errors/api-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { SandboxContext, SandboxMiddleware } from '../http/context.js';

/** Bind addresses meaning "every interface": reached by names we cannot know in advance. */
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

/** A Host value (`name`, `name:port`, `[v6]:port`) parsed the way browsers do, or undefined. */
function parseHost(host: string, scheme = 'http:'): URL | undefined {
  if (host === '' || /[/?#@\\\s]/.test(host)) return undefined;
  try {
    return new URL(`${scheme}//${host}`);
  } catch {
    return undefined;
  }
}

/** `localhost`, `127.x.x.x` and `[::1]`: names no other site can make a browser resolve to us. */
function isLoopbackName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  // `[::ffff:7f00:1]` is how URL writes the IPv4-mapped `[::ffff:127.0.0.1]`.
  return (
    name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name) || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name)
  );
}

export interface SameSiteOptions {
  /** The bind address (`host` option); the app may have no socket, so this is what it was told. */
  host: string;
  /** Lower-cased `name` or `name:port` entries (`allowedHosts`). */
  allowedHosts: readonly string[];
}

/** Decides whether a Host header names this sandbox. */
export function hostPolicy(options: SameSiteOptions): (host: string | undefined) => boolean {
  const anyHost = WILDCARD_BINDS.has(options.host) && options.allowedHosts.length === 0;
  const bound = parseHost(isIPv6(options.host) ? `[${options.host}]` : options.host)?.hostname;
  const allowed = options.allowedHosts.map((entry) => parseHost(entry)).filter((url): url is URL => url !== undefined);
  return (host) => {
    // No Host at all is no browser (they always send one); HTTP/1.1 without it never gets here.
    if (anyHost || host === undefined) return true;
    const url = parseHost(host);
    if (!url) return false;
    if (isLoopbackName(url.hostname) || url.hostname === bound) return true;
    // An entry without a port allows the name on any port.
    return allowed.some((entry) => entry.hostname === url.hostname && (entry.port === '' || entry.port === url.port));
  };
}

/**
 * The sandbox's own origin is the request's own Host, over http or https (a TLS proxy in front):
 * the only origin the dashboard at /__admin/ui sends. `null` (sandboxed frames, file: pages) is not it.
 */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.pathname !== '/' || url.search !== '' || url.username !== '' || url.password !== '') return false;
  // The Host read in the origin's scheme, so a default port left out on one side matches the other.
  return parseHost(host, url.protocol)?.host === url.host;
}

export function adminSameSite(options: SameSiteOptions): SandboxMiddleware {
  const hostAllowed = hostPolicy(options);
  return function adminSameSiteMiddleware(ctx: SandboxContext, next) {
    const host = ctx.get('Host') || undefined;
    const origin = ctx.get('Origin');
    if (origin !== '' && !isOwnOrigin(origin, host))
      throw new ApiError('cross_site_request', { message: MESSAGES.crossSiteOrigin(origin) });
    if (!hostAllowed(host)) throw new ApiError('cross_site_request', { message: MESSAGES.crossSiteHost(host ?? '') });
    return next();
  };
}

/** Equal or not, in a time that does not depend on where the two first differ (or on their lengths). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function adminAuth(token: string | undefined): SandboxMiddleware {
  return function adminAuthMiddleware(ctx: SandboxContext, next) {
    if (token !== undefined && !sameSecret(ctx.get('X-Admin-Token'), token)) {
      throw new ApiError('authentication_required', { message: MESSAGES.adminTokenRequired });
    }
    return next();
  };
}
