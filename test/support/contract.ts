/**
 * Response contracts: every /v1 response a test receives is checked against the app's own OpenAPI
 * document, for its operation and status. The harness attaches the check to every app it makes or
 * talks to (`makeApp`, `client`, `startServer`); `contract-setup.ts` fails the test that received a
 * response the document does not describe: an undocumented status, a body off its schema, a missing
 * or malformed documented header, or an error whose code does not belong to its status.
 */
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { MockApp } from '../../src/app.js';
import { ERROR_CATALOG, type CatalogEntry } from '../../src/errors/catalog.js';
import type { FinishedResponse } from '../../src/http/observe-responses.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { errorEnvelopeSchema } from '../../src/operations/schemas.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/** A JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) with the formats we use. */
export function createAjv2020(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
}

const API_PREFIX = '/v1';

/** `~` and `/` escaped for a JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

type ResponseObject = { headers?: Record<string, HeaderObject>; content?: Record<string, { schema: unknown }> };
type HeaderObject = { $ref?: string; required?: boolean; schema?: Record<string, unknown> };

interface PathMatcher {
  path: string;
  pattern: RegExp;
  methods: Set<string>;
}

/** `document` with every local `$ref` replaced by its target (our schemas have no cycles). */
function dereference(node: unknown, document: unknown, depth = 0): unknown {
  if (depth > 64) throw new Error('$ref chain too deep: is there a cycle?');
  if (Array.isArray(node)) return node.map((item) => dereference(item, document, depth + 1));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) return dereference(atPointer(document, ref.slice(1)), document, depth + 1);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereference(value, document, depth + 1)]));
}

function atPointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Compiled once per distinct schema text: identical error schemas of many operations share one. */
const compiledSchemas = new Map<string, ValidateFunction>();
const schemaAjv = createAjv2020({ strict: false });

function compiledFor(schema: object): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = compiledSchemas.get(text);
  if (!validate) {
    validate = schemaAjv.compile(schema);
    compiledSchemas.set(text, validate);
  }
  return validate;
}

/** Validators compiled from one document; shared by every app that serves an identical document. */
class DocumentValidators {
  private readonly resolved: unknown;
  readonly matchers: PathMatcher[];

  constructor(readonly document: OpenApiDocument) {
    this.resolved = dereference(document, document);
    // Fixed segments before parameters, so `/jobs/recent` would win over `/jobs/{id}`.
    this.matchers = Object.entries(document.paths)
      .map(([path, item]) => ({
        path,
        pattern: new RegExp(`^${API_PREFIX}${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        methods: new Set(Object.keys(item).map((m) => m.toUpperCase())),
      }))
      .sort((a, b) => a.path.split('{').length - b.path.split('{').length);
  }

  validator(pointer: string): ValidateFunction {
    return compiledFor(atPointer(this.resolved, pointer) as object);
  }

  resolve<T>(value: T | { $ref: string }): T {
    const ref = (value as { $ref?: unknown }).$ref;
    return (typeof ref === 'string' ? atPointer(this.document, ref.slice(1)) : value) as T;
  }

  match(method: string, path: string): { path: string; methodMatched: boolean } | undefined {
    const found = this.matchers.find((m) => m.pattern.test(path) && m.methods.has(method));
    if (found) return { path: found.path, methodMatched: true };
    const any = this.matchers.find((m) => m.pattern.test(path));
    return any ? { path: any.path, methodMatched: false } : undefined;
  }
}

const byJson = new Map<string, DocumentValidators>();

function validatorsFor(app: MockApp): DocumentValidators {
  const { document, json } = app.openapi.current();
  let validators = byJson.get(json);
  if (!validators) {
    validators = new DocumentValidators(document);
    byJson.set(json, validators);
  }
  return validators;
}

function headerText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('; ');
}

/** Checks `error.code` against the catalog: the code exists and belongs to the HTTP status. */
function catalogProblems(status: number, body: unknown): string[] {
  const error = (body as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
  if (!error) return [];
  const entry = (ERROR_CATALOG as Record<string, CatalogEntry>)[String(error.code)];
  if (!entry) return [`error code ${JSON.stringify(error.code)} is not in the error catalog`];
  const problems: string[] = [];
  if (entry.status !== status) problems.push(`error code ${String(error.code)} belongs to ${entry.status}, answered with ${status}`);
  if (entry.type !== error.type)
    problems.push(`error code ${String(error.code)} has type ${entry.type}, answered with ${String(error.type)}`);
  return problems;
}

/** The body as the client decodes it: the app may have set a value, or (a replay) its JSON text. */
function wireBody(body: unknown): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return JSON.parse(body);
  if (Buffer.isBuffer(body)) return JSON.parse(body.toString('utf8'));
  return JSON.parse(JSON.stringify(body));
}

/** What is wrong with `response` according to `app`'s document; empty when it is described. */
export function contractProblems(app: MockApp, response: FinishedResponse): string[] {
  const validators = validatorsFor(app);
  const problems: string[] = [];
  let body: unknown;
  try {
    body = wireBody(response.body);
  } catch {
    return [`body is not valid JSON: ${String(response.body).slice(0, 200)}`];
  }
  const contentType = headerText(response.headers['content-type']);
  if (!contentType?.startsWith('application/json')) problems.push(`content-type is ${contentType ?? 'missing'}, not application/json`);

  const declaredPath = response.operation?.path;
  const matched = declaredPath ? { path: declaredPath, methodMatched: true } : validators.match(response.method, response.path);
  if (!matched || !matched.methodMatched) {
    // No operation: an unknown path (404), a known path with another method (405), or a 429 counted first.
    const allowed = matched ? [405, 429, 500] : [404, 429, 500];
    if (!allowed.includes(response.status))
      problems.push(`status ${response.status} for a request no operation answers (expected one of ${allowed.join(', ')})`);
    // The document describes operations only; a request none answers gets the envelope of spec §7.1.
    const validate = compiledFor(errorEnvelopeSchema);
    if (!validate(body)) problems.push(`body is not the Error envelope: ${describeErrors(validate)}`);
    problems.push(...catalogProblems(response.status, body), ...headerProblems(validators, commonHeaders(validators), response));
    return problems;
  }

  // HEAD is the GET without its body (RFC 9110 §9.3.2): the document describes it as the GET.
  const method = response.method === 'HEAD' ? 'get' : response.method.toLowerCase();
  const operationPointer = `/paths/${pointerSegment(matched.path)}/${method}`;
  const operation = validators.resolve<Record<string, unknown> | undefined>(validators.document.paths[matched.path]?.[method]);
  const responses = (operation?.responses ?? {}) as Record<string, ResponseObject>;
  const described = responses[String(response.status)];
  if (!described) {
    return [
      ...problems,
      `status ${response.status} is not documented for ${String(operation?.operationId)} (documented: ${Object.keys(responses).join(', ')})`,
    ];
  }
  const schemaPointer = `${operationPointer}/responses/${response.status}/content/application~1json/schema`;
  if (described.content?.['application/json']) {
    const validate = validators.validator(schemaPointer);
    if (!validate(body))
      problems.push(`body does not match the ${response.status} schema of ${String(operation?.operationId)}: ${describeErrors(validate)}`);
  }
  if (response.status >= 400) problems.push(...catalogProblems(response.status, body));
  problems.push(...headerProblems(validators, described.headers ?? {}, response));
  return problems;
}

/** The headers every /v1 response carries, as documented on any success response. */
function commonHeaders(validators: DocumentValidators): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = {};
  for (const name of Object.keys(validators.document.components.headers ?? {})) {
    const header = validators.resolve<HeaderObject>({ $ref: `#/components/headers/${pointerSegment(name)}` });
    if (header.required) headers[name] = header;
  }
  delete headers['Retry-After'];
  return headers;
}

function headerProblems(validators: DocumentValidators, headers: Record<string, HeaderObject>, response: FinishedResponse): string[] {
  const problems: string[] = [];
  for (const [name, use] of Object.entries(headers)) {
    const header = validators.resolve<HeaderObject>(use);
    const value = headerText(response.headers[name.toLowerCase()]);
    if (value === undefined) {
      if (header.required) problems.push(`documented header ${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    const validate = compiledFor(header.schema);
    if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(value)} does not match its schema (${describeErrors(validate)})`);
  }
  return problems;
}

// ---- recording, for the harness and the per-test check in contract-setup.ts ----

const violations: string[] = [];
const watched = new WeakSet<MockApp>();

/** Checks every later /v1 response of `app` against its document (once per app). */
export function checkContracts<T extends MockApp>(app: T): T {
  if (watched.has(app)) return app;
  watched.add(app);
  app.responseObservers.add((response) => {
    let problems: string[];
    try {
      problems = contractProblems(app, response);
    } catch (error) {
      problems = [`contract check failed: ${(error as Error).stack ?? String(error)}`];
    }
    if (problems.length > 0) {
      violations.push(
        `${response.method} ${response.url} -> ${response.status}\n    ${problems.join('\n    ')}\n    body: ${JSON.stringify(response.body)?.slice(0, 500)}`,
      );
    }
  });
  return app;
}

/** Returns and clears the violations recorded so far. */
export function takeContractViolations(): string[] {
  return violations.splice(0, violations.length);
}
