/**
 * Requests generated from an operation's declaration: valid ones (path, query and body drawn from its
 * schemas, with ids picked from the caller's own records so success paths are reached) and invalid
 * ones (wrong types, unknown fields, wrapped and oversized bodies, garbage JSON, bad query values,
 * another tenant's ids, raw ids, bad credentials, a read-only key on a write). Whether a request must
 * be refused is decided by the operation's own validators, not guessed: a mutation the schema still
 * accepts is only required not to fail.
 */
import fc from 'fast-check';
import { idPrefixOf } from '../../src/openapi/example.js';
import { isWrite, type JsonSchema, type OperationDef } from '../../src/operations/types.js';
import { compileSchema, validatorsFor } from '../../src/operations/validation.js';
import { arbitraryFor, EMAIL, URI, wrongTypeFor, type ArbitraryOptions } from './arbitraries.js';
import { FROZEN_AT } from './harness.js';

export type Credential = 'own' | 'readOnly' | 'anonymous';

export interface GeneratedRequest {
  /** What kind of input this is, for failure messages. */
  label: string;
  method: OperationDef['method'];
  /** Path under /v1 with its query string. */
  url: string;
  credential: Credential;
  headers: Record<string, string>;
  body?: { json: unknown } | { raw: string; contentType: string };
  /** `reject`: the request must get a 4xx. `any`: it must only never fail (5xx). */
  expect: 'reject' | 'any';
}

type Row = Record<string, unknown>;

/** The ids (and slugs) of one tenant's records, read from its admin snapshot (contract §3.2). */
export class IdPool {
  readonly collections = new Map<string, Row[]>();

  constructor(state: Record<string, unknown>) {
    for (const [name, value] of Object.entries(state)) if (Array.isArray(value)) this.collections.set(name, value as Row[]);
  }

  allIds(): string[] {
    return [...this.collections.values()].flatMap((rows) => rows.map((row) => String(row.id)));
  }

  withPrefix(prefix: string): string[] {
    return this.allIds().filter((id) => id.startsWith(`${prefix}_`));
  }

  /** `inbox` or `inbox_id` -> inboxes; `price_variant_id` -> price_variants; `discounts` -> discounts. */
  collectionNamed(name: string): Row[] | undefined {
    const stem = name.replace(/_id$/, '');
    for (const [collection, rows] of this.collections) {
      if ([stem, `${stem}s`, `${stem}es`].some((form) => collection === form || collection.endsWith(`_${form}`))) return rows;
    }
    return undefined;
  }

  /** Ids (and slugs: spec §4.10, §4.11 accept either) that could fill a field or path parameter. */
  candidatesFor(name: string, schema: JsonSchema, collectionHint?: string): string[] {
    const prefix = idPrefixOf(schema.pattern);
    if (prefix) return this.withPrefix(prefix);
    const rows = this.collectionNamed(name === 'id' && collectionHint ? collectionHint : name) ?? [];
    const values = rows.flatMap((row) => [row.id, row.slug]).filter((v): v is string => typeof v === 'string');
    // Values other records hold under the same field name (`experience_id` of event sessions) are ids too.
    if (name !== 'id')
      for (const other of this.collections.values()) for (const row of other) if (typeof row[name] === 'string') values.push(row[name]);
    return [...new Set(values)];
  }
}

const isIdField = (name: string, schema: JsonSchema) => name === 'id' || name.endsWith('_id') || idPrefixOf(schema.pattern) !== undefined;

function properties(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.properties ?? {}) as Record<string, JsonSchema>;
}

/** A query value as text: primitives as String() writes them, arrays comma-joined as String() does. */
function queryText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return Array.isArray(value) ? value.join(',') : JSON.stringify(value);
}

function queryString(query: Row): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) params.append(key, queryText(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface Parts {
  params: Record<string, string>;
  query: Row;
  body: Row | undefined;
}

const BAD_QUERY_VALUES = ['', '0', '-1', '101', '1.5', '1e3', 'abc', 'null', 'true', '[]', '{}', ' 5', 'x'.repeat(300), '%00'];
const GARBAGE_JSON = ['{', '{"a":', '{"a" 1}', "{'a': 1}", '[1,', 'undefined', '{"a":1}}', 'NaN', '\u0000', '{"a":01}'];
const NON_OBJECT_JSON = ['[]', '[{"name":"x"}]', '"text"', '42', 'null', 'true'];
const BAD_AUTHORIZATION = [
  '',
  'Bearer',
  'Bearer ',
  'Basic dXNlcjpwYXNz',
  'Bearer cc_test_no_such_key',
  'bearer cc_test_free_default_key x',
  'Token abc',
];

export class OperationRequests {
  private readonly validators;
  /** Path segment before `{id}` names the collection: `/discounts/{id}` -> discounts. */
  private readonly hints: Record<string, string> = {};

  constructor(
    readonly op: OperationDef,
    private readonly own: IdPool,
    private readonly foreign: IdPool,
    /** The sandbox's virtual now (ms): times near it are the ones a handler accepts. */
    private readonly now: number = Date.parse(FROZEN_AT),
  ) {
    this.validators = validatorsFor(op);
    const segments = op.path.split('/');
    segments.forEach((segment, i) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name && i > 0) this.hints[name] = segments[i - 1]!;
    });
  }

  private pick(pool: IdPool, name: string, schema: JsonSchema): string[] {
    return pool.candidatesFor(name, schema, this.hints[name]);
  }

  /**
   * Times near the sandbox's clock for time fields at any depth (a handler refuses events a week
   * old); ids of the caller's own records for id-like fields, mixed with freshly generated ones; and
   * for a plain string field named like a URL, URLs among the strings (a schema cannot always say
   * "http"). Each keeps the schema's own values in the mix.
   */
  private options(): ArbitraryOptions {
    return {
      override: (schema, path) => {
        const name = path[path.length - 1];
        if (!name) return undefined;
        const near = this.nearNow(name, schema);
        if (near) return near;
        if (schema.type !== 'string') return undefined;
        const shaped = /(^|_)url$/.test(name) ? URI : /(^|_)email$/.test(name) ? EMAIL : undefined;
        if (shaped && schema.format === undefined && schema.pattern === undefined) {
          const validate = compileSchema(schema);
          const { example: _e, ...plain } = schema;
          return fc.oneof(
            { arbitrary: shaped.filter((value) => validate(value)), weight: 2 },
            { arbitrary: arbitraryFor(schema), weight: 1 },
            { arbitrary: arbitraryFor(plain), weight: 1 },
          );
        }
        if (path.length !== 1 || !isIdField(name, schema)) return undefined;
        const known = this.pick(this.own, name, schema);
        if (known.length === 0) return undefined;
        const { pattern: _p, ...plain } = schema;
        return fc.oneof(
          { arbitrary: fc.constantFrom(...known), weight: 4 },
          { arbitrary: arbitraryFor(schema.pattern ? schema : plain), weight: 1 },
        );
      },
    };
  }

  private nearNow(name: string, schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
    const DAY = 86_400;
    if (schema.type === 'integer' && /(^|_)(time|timestamp)$|_at$/.test(name)) {
      const now = Math.floor(this.now / 1000);
      const min = Math.max(typeof schema.minimum === 'number' ? schema.minimum : -Infinity, now - 6 * DAY);
      const max = Math.min(typeof schema.maximum === 'number' ? schema.maximum : Infinity, now + 30);
      if (min > max) return undefined;
      return fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 3 }, { arbitrary: arbitraryFor(schema), weight: 1 });
    }
    if (schema.type === 'string' && schema.format === 'date-time') {
      const near = fc
        .integer({ min: this.now - 30 * DAY * 1000, max: this.now + 60 * DAY * 1000 })
        .map((ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
      return fc.oneof({ arbitrary: near, weight: 3 }, { arbitrary: arbitraryFor(schema), weight: 1 });
    }
    return undefined;
  }

  /**
   * Path parameters that belong together: the first parameter's record, and the others taken from its
   * `<stem>_ids` list when it has one (`/price_variants/{price_variant_id}/experiences/{id}` picks an
   * experience the price variant links).
   */
  private coherentParams(params: fc.Arbitrary<Row>): fc.Arbitrary<Row> {
    const names = Object.keys(properties(this.op.params));
    const [first, ...rest] = names;
    const rows = first ? (this.own.collectionNamed(first === 'id' ? (this.hints[first] ?? first) : first) ?? []) : [];
    if (rest.length === 0 || rows.length === 0) return params;
    const linked = fc.tuple(params, fc.nat(), fc.nat()).map(([base, i, j]) => {
      const row = rows[i % rows.length]!;
      const out: Row = { ...base, [first!]: row.id };
      for (const name of rest) {
        const stem = singular((name === 'id' ? (this.hints[name] ?? name) : name).replace(/_id$/, ''));
        const list = row[`${stem}_ids`];
        if (Array.isArray(list) && list.length > 0) out[name] = list[j % list.length];
      }
      return out;
    });
    return fc.oneof(params, linked);
  }

  private partsArbitrary(): fc.Arbitrary<Parts> {
    const options = this.options();
    const params = this.op.params ? this.coherentParams(arbitraryFor(this.op.params, options) as fc.Arbitrary<Row>) : fc.constant({});
    const query = this.op.query ? (arbitraryFor(this.op.query, this.queryOptions()) as fc.Arbitrary<Row>) : fc.constant({});
    const body = this.op.body ? this.bodyArbitrary(options) : fc.constant(undefined);
    return fc.record({ params: params.map((p) => this.stringParams(p)), query, body });
  }

  private queryOptions(): ArbitraryOptions {
    const ids = this.own.allIds();
    return {
      override: (schema, path) =>
        path.join('.') === 'starting_after' && ids.length > 0
          ? fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 3 }, { arbitrary: arbitraryFor(schema), weight: 1 })
          : undefined,
    };
  }

  private stringParams(params: Row): Record<string, string> {
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
  }

  /**
   * The body from its schema, then (often) anchored on one record: `X_id` set to a record of the X
   * collection and every other `*_id` field copied from it, so related ids agree (a destination and
   * its ad account) and the handler's success path is reached.
   */
  private bodyArbitrary(options: ArbitraryOptions): fc.Arbitrary<Row | undefined> {
    const body = arbitraryFor(this.op.body!, options) as fc.Arbitrary<Row>;
    const anchors = Object.keys(properties(this.op.body))
      .map((field) => ({ field, rows: field.endsWith('_id') ? (this.own.collectionNamed(field) ?? []) : [] }))
      .filter((a) => a.rows.length > 0);
    const anchored =
      anchors.length === 0
        ? body
        : fc.tuple(body, fc.option(fc.tuple(fc.nat(), fc.nat()), { freq: 5 })).map(([value, choice]) => {
            if (!choice) return value;
            const anchor = anchors[choice[0] % anchors.length]!;
            const row = anchor.rows[choice[1] % anchor.rows.length]!;
            const out: Row = { ...value, [anchor.field]: row.id };
            for (const field of Object.keys(properties(this.op.body))) {
              if (field !== anchor.field && field.endsWith('_id') && typeof row[field] === 'string') out[field] = row[field];
            }
            return out;
          });
    // A body the declaration does not require may also be left out entirely.
    return this.op.bodyRequired ? anchored : fc.option(anchored, { freq: 5, nil: undefined });
  }

  private build(label: string, parts: Parts, extra: Partial<GeneratedRequest> = {}): GeneratedRequest {
    let path = this.op.path;
    for (const [name, value] of Object.entries(parts.params)) path = path.replace(`{${name}}`, encodeURIComponent(value));
    return {
      label,
      method: this.op.method,
      url: `/v1${path}${queryString(parts.query)}`,
      credential: 'own',
      headers: {},
      ...(parts.body === undefined ? {} : { body: { json: parts.body } }),
      expect: 'any',
      ...extra,
    };
  }

  /** Accepted by the declaration's validators? (They coerce and fill defaults, so they get copies.) */
  private declaredValid(parts: Parts): boolean {
    const { query, params, body } = this.validators;
    if (params && !params(structuredClone(parts.params))) return false;
    const q = Object.fromEntries(
      Object.entries(parts.query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    if (query ? !query(q) : Object.keys(q).length > 0) return false;
    if (this.op.body && parts.body !== undefined)
      return body ? body(structuredClone(parts.body)) === true : Object.keys(parts.body).length === 0;
    return true;
  }

  valid(): fc.Arbitrary<GeneratedRequest> {
    return this.partsArbitrary().map((parts) => this.build('valid', parts));
  }

  /** Mutated inputs; `expect` is `reject` wherever the declaration itself refuses them. */
  invalid(): fc.Arbitrary<GeneratedRequest> {
    const parts = this.partsArbitrary();
    const judged = (label: string, change: fc.Arbitrary<Parts>) =>
      change.map((p) => this.build(label, p, { expect: this.declaredValid(p) ? 'any' : 'reject' }));
    const mutations: fc.Arbitrary<GeneratedRequest>[] = [];
    const queryProps = properties(this.op.query);
    const bodyProps = properties(this.op.body);

    mutations.push(
      judged(
        'unknown query parameter',
        fc.tuple(parts, fc.stringMatching(/^zz_[a-z]{1,8}$/)).map(([p, key]) => ({ ...p, query: { ...p.query, [key]: '1' } })),
      ),
    );
    if (Object.keys(queryProps).length > 0) {
      const badValue = fc.tuple(
        parts,
        fc.constantFrom(...Object.keys(queryProps)),
        fc.oneof(fc.constantFrom(...BAD_QUERY_VALUES), fc.string({ maxLength: 12 })),
      );
      mutations.push(
        judged(
          'bad query value',
          badValue.map(([p, key, value]) => ({ ...p, query: { ...p.query, [key]: value } })),
        ),
      );
    }
    if (this.op.body) {
      const typed = Object.entries(bodyProps).flatMap(([name, schema]) => {
        const wrong = wrongTypeFor(schema);
        return wrong ? [fc.tuple(fc.constant(name), wrong)] : [];
      });
      const filled = parts.map((p) => ({ ...p, body: p.body ?? {} }));
      if (typed.length > 0) {
        mutations.push(
          judged(
            'wrong type',
            fc.tuple(filled, fc.oneof(...typed)).map(([p, [name, value]]) => ({ ...p, body: { ...p.body, [name]: value } })),
          ),
        );
      }
      mutations.push(
        judged(
          'unknown body field',
          fc
            .tuple(filled, fc.stringMatching(/^zz_[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 1 }))
            .map(([p, key, value]) => ({ ...p, body: { ...p.body, [key]: value } })),
        ),
      );
      const wrapKeys = fc.constantFrom(
        this.op.tag.toLowerCase().replace(/\W+/g, '_'),
        'data',
        'body',
        this.op.path
          .split('/')
          .filter((s) => s && !s.startsWith('{'))
          .pop() ?? 'object',
      );
      mutations.push(
        judged(
          'wrapped body',
          fc.tuple(filled, wrapKeys).map(([p, key]) => ({ ...p, body: { [key]: p.body } })),
        ),
      );
      const strings = Object.entries(bodyProps)
        .filter(([, s]) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')))
        .map(([n]) => n);
      if (strings.length > 0) {
        const huge = fc.tuple(filled, fc.constantFrom(...strings), fc.constantFrom(1_000, 100_000, 600_000));
        mutations.push(
          judged(
            'huge string',
            huge.map(([p, name, size]) => ({ ...p, body: { ...p.body, [name]: 'x'.repeat(size) } })),
          ),
        );
      }
      const raw = (label: string, texts: fc.Arbitrary<string>, contentType = 'application/json') =>
        fc
          .tuple(parts, texts)
          .map(([p, text]) => ({ ...this.build(label, p), body: { raw: text, contentType }, expect: 'reject' as const }));
      mutations.push(
        raw(
          'garbage JSON',
          fc.oneof(
            fc.constantFrom(...GARBAGE_JSON),
            fc.string({ minLength: 1 }).filter((s) => !parsesAsJson(s)),
          ),
        ),
      );
      mutations.push(raw('non-object JSON', fc.constantFrom(...NON_OBJECT_JSON)));
      mutations.push(raw('oversized body', fc.constant(JSON.stringify({ padding: 'x'.repeat(1_100_000) }))));
      mutations.push(raw('not JSON content type', fc.constant('{"name":"x"}'), 'text/plain'));
    }
    const swaps = this.idSwaps();
    if (swaps) mutations.push(swaps);
    mutations.push(
      fc
        .tuple(parts, fc.constantFrom(...BAD_AUTHORIZATION))
        .map(([p, header]) =>
          this.build('bad credentials', p, { credential: 'anonymous', headers: header ? { Authorization: header } : {}, expect: 'reject' }),
        ),
    );
    if (isWrite(this.op)) {
      mutations.push(parts.map((p) => this.build('read-only key on a write', p, { credential: 'readOnly', expect: 'reject' })));
      // Spec §8: at most 255 characters.
      mutations.push(
        fc
          .tuple(parts, fc.integer({ min: 256, max: 2000 }))
          .map(([p, n]) => this.build('long Idempotency-Key', p, { headers: { 'Idempotency-Key': 'k'.repeat(n) }, expect: 'reject' })),
      );
    }
    return fc.oneof(...mutations);
  }

  /** Another tenant's id, or an own id with its prefix stripped (spec §1), in a path or body id slot. */
  private idSwaps(): fc.Arbitrary<GeneratedRequest> | undefined {
    const slots: Array<{ where: 'params' | 'body'; name: string; foreign: string[]; raw: string[] }> = [];
    const add = (where: 'params' | 'body', schema: JsonSchema | undefined) => {
      for (const [name, property] of Object.entries(properties(schema))) {
        if (where === 'body' && !isIdField(name, property)) continue;
        const foreign = this.pick(this.foreign, name, property).filter((id) => !this.pick(this.own, name, property).includes(id));
        const ownIds = new Set(this.own.allIds());
        const raw = this.pick(this.own, name, property)
          .filter((id) => ownIds.has(id) && /^[a-z]+_./.test(id))
          .map((id) => id.replace(/^[a-z]+_/, ''))
          .filter((id) => !ownIds.has(id));
        if (foreign.length + raw.length > 0) slots.push({ where, name, foreign, raw });
      }
    };
    add('params', this.op.params);
    add('body', this.op.body);
    if (slots.length === 0) return undefined;
    const parts = this.partsArbitrary();
    return fc.tuple(parts, fc.constantFrom(...slots), fc.boolean(), fc.nat()).map(([p, slot, useForeign, n]) => {
      const useRaw = !useForeign || slot.foreign.length === 0 ? slot.raw.length > 0 : false;
      const values = useRaw ? slot.raw : slot.foreign;
      const value = values[n % values.length]!;
      const changed: Parts =
        slot.where === 'params'
          ? { ...p, params: { ...p.params, [slot.name]: value } }
          : { ...p, body: { ...(p.body ?? {}), [slot.name]: value } };
      return this.build(useRaw ? 'raw id' : "another tenant's id", changed, { expect: 'reject' });
    });
  }
}

/** `experiences` -> `experience`, `inboxes` -> `inbox`, `categories` -> `category`. */
function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (/(x|s|ch|sh)es$/.test(name)) return name.slice(0, -2);
  return name.replace(/s$/, '');
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
