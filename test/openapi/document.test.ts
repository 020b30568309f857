import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/errors/catalog.js';
import { COMMON_HEADERS, DEPRECATION_HEADERS, IDEMPOTENCY_KEY_MAX_LENGTH } from '../../src/openapi/components.js';
import { bodyMustBeSent, buildOpenApiDocument } from '../../src/openapi/document.js';
import { errorStatuses } from '../../src/openapi/responses.js';
import { isWrite, type JsonSchema, type OperationDef } from '../../src/operations/types.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { createAjv2020 } from '../support/contract.js';
import { bearer, client, KEYS, makeApp } from '../support/harness.js';

type Json = Record<string, any>;

/** The document with every `$ref` replaced by what it points at, as the real validator resolves it. */
async function dereferenced(document: unknown): Promise<Json> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Json);
  expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  expect(result.valid).toBe(true);
  return validator.resolveRefs();
}

/**
 * Drops the `title` that names a component: the rest must equal the declaration's schema. Only the
 * keyword (a string): a property named `title` (a crawled page's) is a schema and stays.
 */
function withoutTitles(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'title' && typeof value === 'string' ? undefined : value)));
}

function operationIn(document: Json, op: OperationDef): Json {
  return document.paths[op.path][op.method.toLowerCase()];
}

const strictAjv = () => {
  // Strict: a misspelt keyword in any declaration fails here. `example`, `x-spec` and
  // `discriminator` (a hint on `oneOf`, which alone decides) are OpenAPI's.
  const ajv = createAjv2020({ strict: true, allowUnionTypes: true });
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: 'x-spec' });
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv;
};

it('crawlSite’s body is required: its url is (a generated client must not offer crawlSite() without one)', () => {
  const crawl = OPERATIONS.find((op) => op.operationId === 'crawlSite')!;
  expect(bodyMustBeSent(crawl)).toBe(true);
});

describe('GET /openapi.json', () => {
  let served: Json;
  let resolved: Json;

  beforeAll(async () => {
    const res = await client(makeApp()).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    served = res.body;
    resolved = await dereferenced(served);
  });

  it('§9.1: is an OpenAPI 3.1 document with version 1.0.0 and the /v1 server, accepted by a real validator', () => {
    expect(served.openapi).toMatch(/^3\.1\./);
    expect(served.info.version).toBe('1.0.0');
    expect(served.servers).toEqual([expect.objectContaining({ url: '/v1' })]);
  });

  it('describes every operation of the operation table, and nothing else', () => {
    const described = Object.entries(served.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, operation]) => `${method.toUpperCase()} ${path} ${(operation as Json).operationId}`),
    );
    expect(described.sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path} ${op.operationId}`).sort());
  });

  it('§5: declares the bearer scheme and requires it everywhere', () => {
    expect(served.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(served.security).toEqual([{ bearerAuth: [] }]);
  });

  describe.each(OPERATIONS.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
    it('carries its id, summary, description, tag and spec section', () => {
      const operation = operationIn(served, op);
      expect(operation).toMatchObject({
        operationId: op.operationId,
        summary: op.summary,
        tags: [op.tag],
        'x-spec-section': op.specSection,
      });
      expect(operation.description).toContain(`§${op.specSection}`);
      expect(operation.deprecated).toBeUndefined();
    });

    it('§4: lists its path and query parameters from the declaration, and Idempotency-Key on writes only', () => {
      const parameters = operationIn(resolved, op).parameters as Json[];
      const pathNames = Object.keys(op.params?.properties ?? {});
      const queryNames = Object.keys(op.query?.properties ?? {});
      expect(parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathNames);
      expect(parameters.filter((p) => p.in === 'path').every((p) => p.required === true)).toBe(true);
      expect(parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(queryNames);
      for (const parameter of parameters.filter((p) => p.in === 'query')) {
        const declared = (op.query!.properties as Json)[parameter.name];
        const { description: _omit, ...rest } = declared;
        expect(withoutTitles(parameter.schema)).toEqual(withoutTitles(rest));
        expect(parameter.required).toBe(((op.query!.required ?? []) as string[]).includes(parameter.name));
      }
      const idempotency = parameters.filter((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (isWrite(op)) {
        expect(idempotency).toEqual([
          expect.objectContaining({
            required: false,
            schema: expect.objectContaining({ type: 'string', maxLength: IDEMPOTENCY_KEY_MAX_LENGTH }),
          }),
        ]);
      } else {
        expect(idempotency).toEqual([]);
      }
    });

    it('describes its request body with the schema that validates it, required when it must be sent or has required members', () => {
      const body = operationIn(resolved, op).requestBody;
      if (!op.body) return expect(body).toBeUndefined();
      const requiredMembers = ((op.body as { required?: string[] }).required ?? []).length > 0;
      expect(body.required).toBe(op.bodyRequired === true || requiredMembers);
      expect(withoutTitles(body.content['application/json'].schema)).toEqual(withoutTitles(op.body));
      expect(strictAjv().validate(op.body, body.content['application/json'].example)).toBe(true);
    });

    it('describes its success response with its schema and a valid example', () => {
      const response = operationIn(resolved, op).responses[String(op.success.status)];
      const media = response.content['application/json'];
      expect(withoutTitles(media.schema)).toEqual(withoutTitles(op.success.schema));
      const ajv = strictAjv();
      const validate = ajv.compile(op.success.schema);
      expect(validate(media.example), JSON.stringify(validate.errors)).toBe(true);
    });

    it('§7.1: answers the Error envelope on every documented error status, plus 400, 401, 429 and 500', () => {
      const responses = operationIn(resolved, op).responses as Json;
      const statuses = Object.keys(responses).map(Number);
      expect(statuses.filter((s) => s >= 400)).toEqual(errorStatuses(op));
      for (const status of [...op.errors, 400, 401, 429, 500]) expect(statuses).toContain(status);
      const ajv = strictAjv();
      for (const status of errorStatuses(op)) {
        const media = responses[String(status)].content['application/json'];
        const validate = ajv.compile(withoutTitles(media.schema) as JsonSchema);
        for (const [code, example] of Object.entries(media.examples as Json)) {
          expect(validate((example as Json).value), `${status} ${code}: ${JSON.stringify(validate.errors)}`).toBe(true);
          if (code in ERROR_CATALOG) expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status).toBe(status);
        }
      }
    });

    it('§8, §7.3.4: every response declares Request-Id and the rate-limit headers; a 429 also Retry-After', () => {
      const responses = operationIn(resolved, op).responses as Json;
      for (const [status, response] of Object.entries(responses)) {
        for (const name of COMMON_HEADERS) expect(response.headers[name]?.required, `${status} ${name}`).toBe(true);
        expect(response.headers['Retry-After']?.required ?? false).toBe(status === '429');
        for (const name of DEPRECATION_HEADERS) expect(response.headers[name]).toBeUndefined();
      }
    });
  });

  it('every schema in the document is a valid JSON Schema 2020-12 under strict compilation', () => {
    const ajv = strictAjv();
    for (const [name, schema] of Object.entries(resolved.components.schemas as Json)) {
      expect(() => ajv.compile(withoutTitles(schema) as JsonSchema), name).not.toThrow();
    }
  });

  it('every success body is a named component, and no component is named after a global', () => {
    const bodies = OPERATIONS.map((op) => operationIn(served, op).responses[String(op.success.status)].content['application/json'].schema);
    expect(bodies.map((schema) => schema.$ref)).toEqual(OPERATIONS.map((op) => `#/components/schemas/${String(op.success.schema.title)}`));
    // The names are the operations' own (above); each is a type name a generator can emit as is.
    expect(bodies.map((schema) => schema.$ref.split('/').pop()).filter((name) => !/^[A-Z][A-Za-z]*$/.test(name))).toEqual([]);
    for (const name of ['Experience', 'Message']) expect(served.components.schemas[name], name).toBeDefined();
    expect(Object.keys(served.components.schemas).filter((name) => name in globalThis)).toEqual([]);
  });

  it('every object schema says whether it takes other members (open objects are maps, not empty)', () => {
    const unsaid: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((child, i) => visit(child, `${at}/${i}`));
      const schema = node as Json;
      if (schema.type === 'object' && !schema.oneOf && schema.additionalProperties === undefined) unsaid.push(at);
      for (const [key, child] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') visit(child, `${at}/${key}`);
    };
    visit(served.components.schemas, '#/components/schemas');
    for (const [path, item] of Object.entries(served.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        visit((operation as Json).requestBody, `${method.toUpperCase()} ${path} requestBody`);
        visit((operation as Json).responses, `${method.toUpperCase()} ${path} responses`);
      }
    }
    expect(unsaid).toEqual([]);
  });

  it('an Experience is a oneOf of its types, discriminated by `type`, each mapped to its variant', () => {
    const experience = served.components.schemas.Experience;
    expect(experience.discriminator.propertyName).toBe('type');
    const variants = (experience.oneOf as Json[]).map((ref) => served.components.schemas[ref.$ref.split('/').pop()]);
    expect(Object.keys(experience.discriminator.mapping)).toEqual(variants.map((variant) => variant.properties.type.const));
    expect(Object.values(experience.discriminator.mapping)).toEqual((experience.oneOf as Json[]).map((ref) => ref.$ref));
  });

  it('every tag has a description, and the document states its license', () => {
    expect(served.tags.length).toBeGreaterThan(0);
    for (const tag of served.tags) expect(tag.description, tag.name).toMatch(/\S/);
    expect(served.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('every parameter example matches its schema', () => {
    const ajv = strictAjv();
    for (const item of Object.values(resolved.paths as Json)) {
      for (const operation of Object.values(item as Json)) {
        for (const parameter of (operation as Json).parameters as Json[]) {
          if (parameter.example === undefined) continue;
          expect(
            ajv.validate(withoutTitles(parameter.schema) as JsonSchema, parameter.example),
            `${(operation as Json).operationId} ${parameter.name}`,
          ).toBe(true);
        }
      }
    }
  });
});

describe('deprecation in the document (spec §9.2)', () => {
  const [target, other] = OPERATIONS;

  it('§9.2, §9.3: flags an operation `deprecated` and declares Deprecation, Sunset and Link on its responses when the predicate says so', async () => {
    const document = buildOpenApiDocument(OPERATIONS, { isDeprecated: (id) => id === target!.operationId });
    const resolved = await dereferenced(document);
    const flagged = operationIn(resolved, target!);
    expect(flagged.deprecated).toBe(true);
    expect(flagged.description).toContain('Deprecated');
    for (const [status, response] of Object.entries(flagged.responses as Json)) {
      // Required on every answer but a 429, which the rate limit gives before the operation is known.
      for (const name of DEPRECATION_HEADERS)
        expect((response as Json).headers[name], `${status} ${name}`).toMatchObject({ required: status !== '429' });
    }
    expect(operationIn(resolved, other!).deprecated).toBeUndefined();
  });

  it('§9.2: flags what the sandbox’s deprecation registry holds, at once, and reset restores the boot set', async () => {
    const deprecatedAt = '2026-01-01T00:00:00Z';
    const app = makeApp({
      deprecations: [
        { operation_id: target!.operationId, deprecated_at: deprecatedAt, sunset: '2026-08-01T00:00:00Z', link: '/docs/migrate' },
      ],
    });
    const api = client(app);
    const flagged = async (op: OperationDef) => operationIn((await api.get('/openapi.json')).body, op).deprecated === true;
    expect([await flagged(target!), await flagged(other!)]).toEqual([true, false]);

    // A scenario (or anything else) changing the registry at run time shows in the next document.
    const boot = app.openapi.current();
    app.sandbox.world.deprecations.set({
      operationId: other!.operationId,
      deprecatedAt: Date.parse(deprecatedAt),
      sunset: Date.parse('2026-12-01T00:00:00Z'),
      link: '/docs/other',
    });
    expect(await flagged(other!)).toBe(true);
    expect(app.openapi.current()).not.toBe(boot);
    app.sandbox.world.deprecations.delete(target!.operationId);
    expect(await flagged(target!)).toBe(false);

    await api.post('/__admin/reset');
    expect([await flagged(target!), await flagged(other!)]).toEqual([true, false]);
  });

  it('the app’s document is built once and rebuilt only when the deprecated set changes', () => {
    const app = makeApp();
    const first = app.openapi.current();
    expect(app.openapi.current()).toBe(first);
    expect(JSON.parse(first.json)).toEqual(first.document);
  });
});

describe('serving the document', () => {
  it('needs no API key, lives outside /v1 and is never rate-limited', async () => {
    const app = makeApp({ rateLimit: 'free=3,paid=3' });
    const api = client(app);
    for (let i = 0; i < 5; i++) {
      const res = await api.get('/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
      expect(res.headers['request-id']).toMatch(/^req_/);
    }
    const status = await api.get('/v1/status').set(bearer(KEYS.free));
    expect(status.body.limits.rate_limit.remaining).toBe(2);
  });

  it('is byte-identical across instances with the same operations', async () => {
    const [a, b] = await Promise.all([client(makeApp()).get('/openapi.json'), client(makeApp({ seed: 99 })).get('/openapi.json')]);
    expect(a.text).toBe(b.text);
  });

  it('answers HEAD, and other methods with 405 in the envelope', async () => {
    const api = client(makeApp());
    const head = await api.head('/openapi.json');
    expect(head.status).toBe(200);
    const post = await api.post('/openapi.json').send({});
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.body.error).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed' });
  });
});
