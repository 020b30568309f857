/**
 * One temporary folder per test run, removed when the run ends: every `os.tmpdir()` of the tests,
 * their workers and the processes they start (the CLI, npm, Chromium) lies inside it, so the
 * fixtures, scenario files and installs tests write to temporary folders never pile up in the
 * machine's /tmp, whether or not each test cleans up after itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function tempRoot(): () => void {
  const before = process.env.TMPDIR;
  const root = mkdtempSync(path.join(tmpdir(), 'ccm-test-run-'));
  // os.tmpdir() reads TMPDIR at each call; workers and child processes inherit it.
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
