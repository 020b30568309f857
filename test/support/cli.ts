/** Runs the built CLI (dist/cli.js) as a child process. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Children still running when a test file ends are killed then. No wall-clock limit of its own
 * (tests never depend on the machine's load, and a loaded machine starts a process slowly): a child
 * that never answers fails its test by the test's timeout.
 */
const children = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function track(child: ChildProcessWithoutNullStreams): ChildProcessWithoutNullStreams {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Runs the CLI to completion (for --help and start-up failures). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = track(spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  url: string;
  firstLine: string;
  output: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** Starts the CLI and resolves once it prints its `listening on <url>` line. */
export function startCli(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  return startProcess(process.execPath, [CLI, ...args], env);
}

/** Starts any command that prints the CLI's `listening on <url>` line (the built CLI, npx, …). */
export function startProcess(command: string, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, ...(cwd ? { cwd } : {}) }),
    );
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const firstLine = stdout.split('\n')[0] ?? '';
      const match = /listening on (http:\/\/\S+)/.exec(firstLine);
      if (match?.[1] && stdout.includes('\n')) {
        resolve({ child, url: match[1], firstLine, output: () => stdout + stderr, exited });
      }
    });
    void exited.then((code) => {
      reject(new Error(`CLI exited with ${code} before listening: ${stdout} ${stderr}`));
    });
  });
}
