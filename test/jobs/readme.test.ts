/**
 * The README's Jobs section: its shell walk-through (freeze, crawl, advance, poll) prints what its
 * comments say, run as written with curl and Node against the built CLI, and needs no jq (a reader may not have it).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../support/cli.js';
import { docPage } from '../support/docs.js';

const readme = docPage('jobs-and-clock');
const section = readme.slice(readme.indexOf('### Driving a job from a test'), readme.indexOf('### The crawl and its result'));
const shellBlock = /```sh\n([\s\S]*?)```/.exec(section)![1]!;

let server: RunningCli | undefined;
afterAll(() => server?.child.kill('SIGKILL'));

describe('docs/jobs-and-clock.md: driving a job from a shell', () => {
  it('uses no jq, and each line prints what its comment says', async () => {
    expect(shellBlock).not.toMatch(/\bjq\b/);
    server = await startCli(['--port', '0']);
    const lines = shellBlock.trimEnd().split('\n');
    const MARK = '@@line-end@@';
    // One shell runs the block line by line; a marker after each line splits its output per line.
    const script = lines.map((line) => `${line.replaceAll('http://127.0.0.1:4010', server!.url)}\necho ${MARK}`).join('\n');
    const output = execFileSync('sh', ['-c', script], { encoding: 'utf8' });
    const printed = output
      .split(`${MARK}\n`)
      .slice(0, lines.length)
      .map((chunk) => chunk.trim());
    const expected = lines.map((line) => /\s#\s(\S.*)$/.exec(line)?.[1]?.trim() ?? '');
    expect(printed).toEqual(expected);
  });
});
