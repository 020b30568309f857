import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../src/http/route-table.js';
import { OPERATIONS } from '../../src/resources/index.js';

const table = new RouteTable('/v1', [
  { method: 'GET', path: '/auth/keys', target: 'listKeys' },
  { method: 'POST', path: '/auth/keys', target: 'createKey' },
  { method: 'GET', path: '/jobs/{id}', target: 'getJob' },
  { method: 'DELETE', path: '/price_variants/{price_variant_id}/experiences/{id}', target: 'unlink' },
]);

describe('contract §2: the /v1 route table', () => {
  it('finds literal paths by method, and answers HEAD with the GET route', () => {
    expect(table.lookup('GET', '/v1/auth/keys')).toEqual({ kind: 'found', target: 'listKeys', params: {} });
    expect(table.lookup('POST', '/v1/auth/keys')).toEqual({ kind: 'found', target: 'createKey', params: {} });
    expect(table.lookup('HEAD', '/v1/auth/keys')).toEqual({ kind: 'found', target: 'listKeys', params: {} });
  });

  it('binds path parameters by name, percent-decoded', () => {
    expect(table.lookup('GET', '/v1/jobs/job_123')).toEqual({ kind: 'found', target: 'getJob', params: { id: 'job_123' } });
    expect(table.lookup('GET', '/v1/jobs/a%20b')).toEqual({ kind: 'found', target: 'getJob', params: { id: 'a b' } });
    expect(table.lookup('DELETE', '/v1/price_variants/pv_1/experiences/exp_2')).toEqual({
      kind: 'found',
      target: 'unlink',
      params: { price_variant_id: 'pv_1', id: 'exp_2' },
    });
  });

  it('answers a known path with another method with the methods it has, GET with HEAD', () => {
    expect(table.lookup('DELETE', '/v1/auth/keys')).toEqual({ kind: 'method_not_allowed', allow: 'GET, HEAD, POST' });
    expect(table.lookup('POST', '/v1/jobs/job_1')).toEqual({ kind: 'method_not_allowed', allow: 'GET, HEAD' });
  });

  it.each([
    '/v1/auth/keys/',
    '/v1/Auth/Keys',
    '/v1/jobs/',
    '/v1/jobs',
    '/v1/jobs/a/b',
    '/v1/jobs/%E0%A4%A',
    '/v1',
    '/auth/keys',
    '/v2/auth/keys',
    '/v1/price_variants/pv_1/experiences',
  ])('matches exactly: %s is missing', (path) => {
    expect(table.lookup('GET', path)).toEqual({ kind: 'missing' });
  });

  it('refuses two routes with one method and path', () => {
    expect(
      () =>
        new RouteTable('/v1', [
          { method: 'GET', path: '/a/{id}', target: 1 },
          { method: 'GET', path: '/a/{id}', target: 2 },
        ]),
    ).toThrow(/Duplicate route GET \/a\/\{id\}/);
  });

  it('routes every declared operation to itself', () => {
    const real = new RouteTable(
      '/v1',
      OPERATIONS.map((op) => ({ method: op.method, path: op.path, target: op.operationId })),
    );
    for (const op of OPERATIONS) {
      const concrete = op.path.replace(/\{[a-z_]+\}/g, 'x_1');
      expect(real.lookup(op.method, `/v1${concrete}`), op.operationId).toMatchObject({ kind: 'found', target: op.operationId });
    }
  });
});
