/**
 * The README's endpoint table lists every operation, and its resource curl examples work: each one
 * is replayed in order (in-process) against the default fixture and must succeed.
 */
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/resources/index.js';
import { bearer, client, FROZEN_AT, KEYS, makeApp } from '../support/harness.js';
import { docPage } from '../support/docs.js';

const readme = docPage('api');

interface CurlExample {
  line: string;
  method: string;
  path: string;
  body?: string;
}

/** The `curl` lines of the README block that follows "The resource endpoints", continuations joined. */
function resourceCurlExamples(): CurlExample[] {
  const start = readme.indexOf('The resource endpoints');
  const block = readme.slice(readme.indexOf('```sh', start) + 5, readme.indexOf('```\n', readme.indexOf('```sh', start) + 5));
  return block
    .replace(/ \\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.startsWith('curl '))
    .map((line) => {
      // `'"$(date +%s)"'` splices the current Unix time into a single-quoted body.
      const expanded = line.replace(`'"$(date +%s)"'`, String(Date.parse(FROZEN_AT) / 1000));
      const url = /'?http:\/\/127\.0\.0\.1:4010(\/[^'\s]*)'?/.exec(expanded)![1]!;
      const body = / -d '([^']*)'/.exec(expanded)?.[1];
      return { line, method: /-X (\w+)/.exec(expanded)?.[1] ?? 'GET', path: url, ...(body === undefined ? {} : { body }) };
    });
}

describe('docs/api.md', () => {
  it('lists every /v1 operation in the Endpoints table with its method and path', () => {
    for (const op of OPERATIONS) {
      expect(readme, op.operationId).toContain(`| \`${op.operationId}\` | \`${op.method} /v1${op.path}\` | ${op.specSection} |`);
    }
  });

  it('gives a curl example for each resource operation, and every example succeeds against the default fixture', async () => {
    const examples = resourceCurlExamples();
    expect(examples.length).toBeGreaterThanOrEqual(10);
    const app = makeApp();
    const api = client(app);
    const covered = new Set<string>();
    for (const example of examples) {
      const request = api[example.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](example.path).set(bearer(KEYS.free));
      const res = await (example.body === undefined ? request : request.type('json').send(example.body));
      expect(res.status, `${example.line}\n${res.text}`).toBeLessThan(300);
      const op = OPERATIONS.find(
        (o) => o.method === example.method && new RegExp(`^/v1${o.path.replace(/\{[a-z_]+\}/g, '[^/?]+')}(\\?|$)`).test(example.path),
      );
      if (op) covered.add(op.operationId);
    }
    const resourceOperations = [
      'createFormSubmission',
      'sendConversions',
      'updateInbox',
      'listInboxMessages',
      'listExperiences',
      'unlinkPriceVariantExperience',
      'deleteDiscount',
      'createEventSession',
    ];
    for (const id of resourceOperations) expect(covered, id).toContain(id);
  });
});
