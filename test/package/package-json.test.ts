/** The package skeleton: what npm reads of package.json. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('package.json', () => {
  it('names the package and points its bin at built JavaScript with a shebang', () => {
    expect(pkg.name).toBe('creator-commerce-mock');
    expect(pkg.bin['creator-commerce-mock']).toBe('dist/cli.js');
    const cli = readFileSync(new URL('../../dist/cli.js', import.meta.url), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node')).toBe(true);
    // Bundled (scripts/build-dist.mjs): one module to load, no imports of the dependencies at start-up.
    expect(cli).not.toMatch(/^import .* from ['"](koa|ajv|@faker-js\/faker)/m);
  });

  it('exports typed entry points, the library for import and require, and requires Node 20+', () => {
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js', require: './dist/index.cjs' });
    expect(pkg.exports['./vitest']).toEqual({ types: './dist/vitest.d.ts', import: './dist/vitest.js' });
    expect(pkg.engines.node).toMatch(/^>=20/);
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['start', 'test', 'build', 'typecheck']));
    // npm runs only `prepare` when it installs from git: it is what builds dist/ there (README "Install").
    expect(pkg.scripts.prepare).toBe('npm run build');
  });

  it('exports startMockServer and createApp', () => {
    expect(library.startMockServer).toBeTypeOf('function');
    expect(library.createApp).toBeTypeOf('function');
    expect(library.AdminClient).toBeTypeOf('function');
  });
});

describe('startMockServer (contract §1)', () => {
  it('serves on a free port and returns url, apiUrl, port, a typed admin client and close()', async () => {
    const mock = await library.startMockServer({ clock: '2026-01-01T00:00:00Z' });
    try {
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      expect(mock.apiUrl).toBe(`${mock.url}/v1`);
      expect(await mock.admin.health()).toEqual({ status: 'ok' });
      const { api_key } = await mock.admin.accounts.create({ plan: 'paid' });
      const res = await fetch(`${mock.apiUrl}/status`, { headers: { Authorization: `Bearer ${api_key.token}` } });
      expect(((await res.json()) as { limits: { rate_limit: { tier: string } } }).limits.rate_limit.tier).toBe('paid');
      expect((await mock.admin.clock.advance(30)).now).toBe('2026-01-01T00:00:30.000Z');
      await expect(mock.admin.accounts.get('acct_nope')).rejects.toThrow(/404 resource_missing/);
    } finally {
      await mock.close();
    }
  });
});
