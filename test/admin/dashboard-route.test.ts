/** Contract §4.4: `GET /__admin/ui` serves the dashboard's one document, with or without an admin token configured. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_SCRIPT, DASHBOARD_STYLE } from '../../src/ui/dashboard-assets.generated.js';
import { client, makeApp } from '../support/harness.js';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('GET /__admin/ui (contract §4.4)', () => {
  it('contract §4.4: one HTML document, its script and style inlined, under 100 KB', async () => {
    const res = await client(makeApp()).get('/__admin/ui');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain(`<script>${DASHBOARD_SCRIPT}</script>`);
    expect(res.text).toContain(`<style>${DASHBOARD_STYLE}</style>`);
    expect(Buffer.byteLength(res.text)).toBeLessThan(100 * 1024);
    // Nothing in the markup loads from elsewhere: no src= or href= other than the empty icon. (The
    // script sets a link's href to a Blob URL of its own to save a download; the CSP test below
    // shows that nothing but the own origin can be fetched.)
    expect(res.text.replace(DASHBOARD_SCRIPT, '').match(/\b(?:src|href)=/g)).toEqual(['href=']);
  });

  it('contract §4.4: a Content-Security-Policy that allows the inlined script and style by hash and only the own origin to be fetched', async () => {
    const res = await client(makeApp()).get('/__admin/ui');
    const policy = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split('; ')
        .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]),
    );
    expect(policy).toEqual({
      'default-src': "'none'",
      'script-src': sha(DASHBOARD_SCRIPT),
      'style-src': sha(DASHBOARD_STYLE),
      'connect-src': "'self'",
      'img-src': 'data:',
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('contract §4.4: with an admin token configured the document needs none (it holds no data); the API it calls still does', async () => {
    const c = client(makeApp({ adminToken: 'sesame' }));
    expect((await c.get('/__admin/ui')).status).toBe(200);
    expect((await c.get('/__admin/clock')).status).toBe(401);
    expect((await c.get('/__admin/clock').set('X-Admin-Token', 'sesame')).status).toBe(200);
  });

  it("contract §3: the page's own fetches (Origin: its own origin) pass the same-site guard; another site's do not", async () => {
    const c = client(makeApp());
    const own = await c
      .post('/__admin/clock/advance')
      .set('Host', '127.0.0.1:4010')
      .set('Origin', 'http://127.0.0.1:4010')
      .send({ seconds: 1 });
    expect(own.status).toBe(200);
    const other = await c.get('/__admin/ui').set('Host', '127.0.0.1:4010').set('Origin', 'http://evil.example');
    expect(other.status).toBe(403);
  });

  it('contract §3: matched exactly like every admin path; HEAD answers the headers', async () => {
    const c = client(makeApp());
    for (const path of ['/__admin/UI', '/__admin/ui/', '/__ADMIN/ui']) expect((await c.get(path)).status, path).toBe(404);
    const head = await c.head('/__admin/ui');
    expect([head.status, head.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
  });
});
