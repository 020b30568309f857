/**
 * The admin table (src/admin/operations.ts) is the one list of admin routes: the reference page
 * shows each of them, and the typed client calls each of them. Adding a route to the table without
 * the rest fails here.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminClient } from '../../src/admin/client.js';
import { ADMIN_OPERATIONS } from '../../src/admin/operations.js';
import { methodOf, pathOf } from '../../src/admin/route-kit.js';
import { ADMIN_REFERENCE_FILE, adminReferenceTable, withReferenceTable } from '../../scripts/admin-reference.js';

const page = readFileSync(ADMIN_REFERENCE_FILE, 'utf8');

describe('docs/admin-api.md reads the admin table', () => {
  it('shows the table rendered from the declarations (run `npm run generate` after changing one)', () => {
    expect(page).toBe(withReferenceTable(page, adminReferenceTable()));
  });

  it('names every declared route', () => {
    const missing = ADMIN_OPERATIONS.map((operation) => `\`${methodOf(operation).toUpperCase()} /__admin${pathOf(operation)}\``).filter(
      (route) => !page.includes(route),
    );
    expect(missing).toEqual([]);
  });
});

/** Every request the client sends while each of its methods is called once, as `METHOD /path` (no query). */
async function clientRequests(): Promise<{ sent: string[]; named: string[] }> {
  const sent: string[] = [];
  vi.stubGlobal('fetch', (url: string, init: { method: string }) => {
    sent.push(`${init.method} ${new URL(url).pathname.replace(/^\/__admin/, '')}`);
    return Promise.resolve(new Response(JSON.stringify({ account: { id: 'acct_x' }, api_key: { token: 'tok' } }), { status: 200 }));
  });
  const admin = new AdminClient('http://127.0.0.1:1');
  const named: string[] = [];
  const callAll = async (target: Record<string, unknown>, prefix: string) => {
    for (const [name, member] of Object.entries(target)) {
      if (typeof member !== 'function') continue;
      named.push(`${prefix}${name}`);
      const answer: unknown = await (member as (...args: unknown[]) => unknown)('id_x', {});
      // The tenant handle and an account's clock are methods too.
      if (answer && typeof answer === 'object' && 'clock' in answer && typeof (answer as { state?: unknown }).state === 'function') {
        await callAll(answer, 'tenant.');
        await callAll((answer as { clock: Record<string, unknown> }).clock, 'tenant.clock.');
      }
      // An account's clock or finding rules: an object of methods.
      const methods = answer && typeof answer === 'object' ? Object.values(answer) : [];
      if (methods.length > 0 && methods.every((value) => typeof value === 'function')) {
        await callAll(answer as Record<string, unknown>, `${prefix}${name}(id).`);
      }
      // A method with methods of its own (`tenant.findings.rules`).
      if (Object.keys(member).length > 0) await callAll(member as unknown as Record<string, unknown>, `${prefix}${name}.`);
    }
  };
  const proto = Object.getPrototypeOf(admin) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor' || name === 'request' || typeof proto[name] !== 'function') continue;
    named.push(name);
    await (proto[name] as () => Promise<unknown>).call(admin);
  }
  for (const [name, member] of Object.entries(admin)) {
    if (member && typeof member === 'object') await callAll(member as Record<string, unknown>, `${name}.`);
  }
  return { sent, named };
}

describe('the typed client reads the admin table', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('calls every declared route through one of its methods', async () => {
    const { sent } = await clientRequests();
    const matches = (route: string) => {
      const [method, path] = [route.slice(0, route.indexOf(' ')), route.slice(route.indexOf(' ') + 1)];
      const pattern = new RegExp(`^${method} ${path.replace(/\{[a-z_]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`);
      return sent.some((request) => pattern.test(request));
    };
    expect(ADMIN_OPERATIONS.map((operation) => operation.route).filter((route) => !matches(route))).toEqual([]);
  });

  it('the client methods each declaration names exist', async () => {
    const { named } = await clientRequests();
    const mentioned = ADMIN_OPERATIONS.flatMap((operation) => operation.client)
      .map((call) => /^(?:admin|tenant)\.([\w.]+(?:\(id\)\.[\w]+)?)\(/.exec(call))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => (match[0].startsWith('tenant') ? `tenant.${match[1]}` : match[1]!));
    expect(mentioned.length).toBeGreaterThan(25);
    expect(mentioned.filter((name) => !named.includes(name))).toEqual([]);
  });
});
