/**
 * Which statuses an operation can answer, and the response objects describing them. The reference
 * lists error statuses per operation (`op.errors`); the shared middlewares can also answer a few
 * more for any operation (a bad query on an operation whose list has no 400, a read-only key on a
 * write whose list has no 403, …). The document describes what the sandbox really answers, so those
 * are added here, each saying why: a response the document does not describe is a bug.
 */
import { ERROR_CATALOG } from '../errors/catalog.js';
import { isWrite, type OperationDef } from '../operations/types.js';
import { COMMON_HEADERS, DEPRECATION_HEADERS, errorExamples, errorSchemaForStatus, headerUse } from './components.js';
import { exampleFromSchema } from './example.js';

/** Statuses the common middlewares can produce for `op`, with the reason, whatever the reference lists. */
export function protocolStatuses(op: OperationDef): Map<number, string> {
  const statuses = new Map<number, string>();
  statuses.set(
    400,
    op.body
      ? 'a malformed or non-object JSON body, an unknown query parameter, or an Idempotency-Key over 255 characters'
      : 'an unknown or invalid query parameter',
  );
  statuses.set(401, 'a missing, malformed, unknown, revoked or expired API key');
  if (isWrite(op)) statuses.set(403, 'a read-only API key');
  if (op.params && Object.keys(op.params.properties ?? {}).length > 0)
    statuses.set(404, 'an id in the path that does not exist for the account');
  if (op.body) statuses.set(415, 'a body in a Content-Encoding it cannot decode');
  if (op.body) statuses.set(422, 'a well-formed body with invalid values');
  statuses.set(429, 'the rate limit of the window is used up');
  statuses.set(500, 'an unexpected failure (or the `server-error` scenario)');
  return statuses;
}

/** Every error status of the operation, ascending: the reference's list plus the protocol's. */
export function errorStatuses(op: OperationDef): number[] {
  return [...new Set([...op.errors, ...protocolStatuses(op).keys()])].sort((a, b) => a - b);
}

function headers(op: OperationDef, status: number, deprecated: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of COMMON_HEADERS) out[name] = headerUse(name, true);
  if (status === 429) out['Retry-After'] = headerUse('Retry-After', true);
  if (isWrite(op)) out['Idempotent-Replayed'] = headerUse('Idempotent-Replayed', false);
  // Spec §9.3: a deprecated operation serves them on every answer, its errors included; only a 429 can
  // come before the operation is known (the rate limit counts first), so there they are optional.
  if (deprecated) for (const name of DEPRECATION_HEADERS) out[name] = headerUse(name, status !== 429);
  return out;
}

const JSON_MEDIA = 'application/json';

export function successResponse(op: OperationDef, deprecated: boolean): Record<string, unknown> {
  return {
    description: op.success.description,
    headers: headers(op, op.success.status, deprecated),
    content: { [JSON_MEDIA]: { schema: op.success.schema, example: op.success.example ?? exampleFromSchema(op.success.schema) } },
  };
}

function examplesOf(status: number): { examples?: ReturnType<typeof errorExamples> } {
  const examples = errorExamples(status);
  return Object.keys(examples).length > 0 ? { examples } : {};
}

export function errorResponse(op: OperationDef, status: number, deprecated: boolean): Record<string, unknown> {
  const codes = Object.entries(ERROR_CATALOG)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => `\`${code}\``);
  const listed = op.errors.includes(status);
  const reason = protocolStatuses(op).get(status);
  let description = codes.length > 0 ? `Error ${codes.join(', ')}.` : 'Error.';
  if (!listed && reason) description += ` Not listed by the reference for this operation; the sandbox answers it for ${reason}.`;
  return {
    description,
    headers: headers(op, status, deprecated),
    content: { [JSON_MEDIA]: { schema: errorSchemaForStatus(status), ...examplesOf(status) } },
  };
}
