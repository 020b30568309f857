/**
 * "My client is well-behaved" in one line of a test, in any runner: `await expectNoFindings(tenant)`
 * throws an Error listing each finding with its message and request ids, which vitest, Jest and
 * `node:test` all report as the test's failure.
 */
import type { Finding } from './finding.js';

/** Anything that lists findings: a tenant handle (`tenant.findings`), or a wrapper around `admin.findings.list`. */
export interface FindingsSource {
  readonly id?: string;
  findings(query?: { limit?: number; rule?: string }): Promise<{ data: Finding[]; has_more: boolean }>;
}

/** The failure text: one paragraph per finding, newest first, as the admin API lists them. */
export function describeFindings(findings: readonly Finding[], more: boolean, who = 'the account'): string {
  const lines = [`expected no findings for ${who}, found ${findings.length}${more ? ' (and more)' : ''}:`];
  for (const f of findings) {
    lines.push(`  - [${f.severity}] ${f.rule} (${f.section}) ${f.id}`);
    lines.push(`    ${f.message}`);
    if (f.request_ids.length > 0) lines.push(`    requests: ${f.request_ids.join(', ')}`);
    if (f.delivery_ids.length > 0) lines.push(`    deliveries: ${f.delivery_ids.join(', ')}`);
  }
  return lines.join('\n');
}

export class FindingsError extends Error {
  constructor(
    message: string,
    readonly findings: readonly Finding[],
  ) {
    super(message);
    this.name = 'FindingsError';
  }
}

/**
 * Resolves when the source has no findings (of any rule, or of those not in `ignore`); otherwise
 * rejects with a FindingsError whose message lists them. `ignore` silences rules a test provokes on
 * purpose.
 */
export async function expectNoFindings(source: FindingsSource, options: { ignore?: readonly string[] } = {}): Promise<void> {
  const page = await source.findings({ limit: 100 });
  const ignored = new Set(options.ignore ?? []);
  const found = page.data.filter((f) => !ignored.has(f.rule));
  if (found.length === 0 && !(page.has_more && ignored.size === 0)) return;
  throw new FindingsError(describeFindings(found, page.has_more, source.id === undefined ? undefined : `account ${source.id}`), found);
}
