/**
 * The `--report` file (contract §5.2): on SIGTERM, SIGINT or `close()`, before the process exits,
 * `{"findings": [every finding], "coverage": <coverage of every account>}` as JSON, and one summary
 * line per rule that fired on stderr. A CI job keeps the file as an artifact; a Docker sidecar
 * writes it into a mounted folder (docs/ci-and-docker.md).
 *
 * Plain data in, a file out: where findings and coverage come from is the caller's (src/server.ts:
 * findings through findings-source.ts, coverage from the coverage module), so this module knows neither. Written to a temporary file beside the target and renamed, so a
 * reader never sees half a report, even when the process is killed while writing.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What the report reads of a finding (contract §5.1); the rest of it is written as it is. */
export interface ReportFinding {
  rule: string;
  severity: string;
  section: string;
  message: string;
}

/** Where the report's contents come from, read once when it is written. */
export interface ReportSources {
  findings(): readonly ReportFinding[];
  coverage(): unknown;
}

/** One line per rule that fired, in order of first appearance: its count, severity, section and first message. */
export function summaryLines(findings: readonly ReportFinding[]): string[] {
  const byRule = new Map<string, { count: number; first: ReportFinding }>();
  for (const finding of findings) {
    const seen = byRule.get(finding.rule);
    if (seen) seen.count += 1;
    else byRule.set(finding.rule, { count: 1, first: finding });
  }
  return [...byRule.entries()].map(
    ([rule, { count, first }]) =>
      `creator-commerce-mock report: ${rule} (${first.severity}, ${first.section}): ${count} finding${count === 1 ? '' : 's'}; first: ${first.message}`,
  );
}

export interface WrittenReport {
  file: string;
  findings: number;
  lines: string[];
}

/** Writes the report to `file` (its folder made if missing) and returns the summary lines to print. */
export function writeReport(file: string, sources: ReportSources): WrittenReport {
  const findings = sources.findings();
  const json = JSON.stringify({ findings, coverage: sources.coverage() }, null, 2);
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${json}\n`);
  renameSync(temporary, file);
  return { file, findings: findings.length, lines: summaryLines(findings) };
}
