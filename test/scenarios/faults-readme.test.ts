/**
 * The README's transport-fault examples run as written against a real server, with got
 * as the client with retries, and each comment says what got actually saw.
 */
import { runInThisContext } from 'node:vm';
import { transformSync } from 'esbuild';
import got from 'got';
import { describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/server.js';
import { mockServers } from '../support/protocol.js';
import { docPage } from '../support/docs.js';

const readme = docPage('scenarios');
const section = readme.slice(readme.indexOf('**Transport faults**'), readme.indexOf('**Chance.**'));
const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

type Run = (
  mock: MockServer,
  gotClient: typeof got,
) => Promise<{
  seen: string[];
  created: { statusCode: number; headers: Record<string, unknown> };
  state: { api_keys: Array<{ name: string | null }> };
}>;

describe('docs/scenarios.md "Transport faults"', () => {
  const start = mockServers();

  it('contract §4.2: got retries each fault and gets 200; the idempotent POST retry after a lost answer creates one record', async () => {
    expect(blocks).toHaveLength(2);
    const mock = await start({});
    // The import line is the reader's; the test hands the same module in.
    const code = blocks.join('\n').replace("import got from 'got';\n", '');
    // TypeScript as written in the README, its types stripped the way the reader's toolchain would.
    const source = transformSync(`async function run(mock, got) {\n${code}\nreturn { seen, created, state };\n}`, { loader: 'ts' }).code;
    // Compiled as a script of its own (node:vm), as the reader's file would be; it returns the function.
    const run = runInThisContext(`(${source.trim().replace(/;$/, '')})`) as Run;
    const { seen, created, state } = await run(mock, got);
    // Each comment names the error got retried on, in order.
    const documented = blocks[0]!
      .split('\n')
      .filter((line) => line.startsWith('await watched.get'))
      .map((line) =>
        line
          .split('// ')[1]!
          .replace(/ \(.*\)/, '')
          .replace(/, then .*$/, ''),
      );
    expect(seen).toEqual(documented);
    expect(documented).toHaveLength(4);
    expect([created.statusCode, created.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(state.api_keys.filter((key) => key.name === 'ci')).toHaveLength(1);
    expect(state.api_keys).toHaveLength(2);
    const { data } = await mock.admin.requests.list({ limit: 2 });
    expect(data.map((entry) => [entry.fault, entry.status, entry.idempotent_replayed])).toEqual([
      [null, 201, true],
      ['connection-reset', 201, false],
    ]);
  });
});
