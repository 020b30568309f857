/**
 * A vitest reporter that keeps, for every failed test, the artifacts creator-commerce-mock's
 * useTenant recorded on it (the tenant's HAR, its findings) in failure-report.json: the file a CI
 * job uploads as an artifact. vitest saves each attachment under .vitest-attachments/; its
 * content is copied in here, so the one file is enough.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export default class FailureReport {
  failures = new Map();

  onTestCaseArtifactRecord(testCase, artifact) {
    if (artifact.type !== 'creator-commerce-mock') return;
    const list = this.failures.get(testCase.fullName) ?? [];
    for (const attachment of artifact.attachments ?? []) {
      const body = attachment.body ?? (attachment.path ? readFileSync(attachment.path, 'utf8') : undefined);
      list.push({ message: artifact.message, contentType: attachment.contentType, body });
    }
    this.failures.set(testCase.fullName, list);
  }

  onTestRunEnd() {
    const report = [...this.failures].map(([test, attachments]) => ({ test, attachments }));
    writeFileSync('failure-report.json', `${JSON.stringify(report, null, 2)}\n`);
  }
}
