/**
 * Contract §5 "The same request": method, path, query and body (bodies compared as JSON values: key
 * order and spacing do not count); headers do not. The credential is the state's key, not part of
 * the signature. Reduced to a SHA-1 so a kept signature weighs 40 bytes whatever the body.
 */
import { createHash } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import type { RequestObservation } from './observation.js';

/** JSON with object keys sorted at every depth: equal JSON values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

export function requestSignature(request: Pick<RequestObservation, 'method' | 'path' | 'querystring' | 'body'>): string {
  // Parsed, so `?a=1&b=2` and `?b=2&a=1` are one query; repeated names keep their order.
  const query = request.querystring === '' ? '{}' : canonicalJson({ ...parseQuery(request.querystring) });
  const body = request.body();
  const text = `${request.method} ${request.path}\n${query}\n${body === undefined ? '' : canonicalJson(body)}`;
  return createHash('sha1').update(text).digest('hex');
}
