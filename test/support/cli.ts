/** Runs the built CLI (dist/cli.js) as a child process. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for --help and start-up failures). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 10_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
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
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, ...(cwd ? { cwd } : {}) });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not start: ${stdout} ${stderr}`));
    }, 10_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const firstLine = stdout.split('\n')[0] ?? '';
      const match = /listening on (http:\/\/\S+)/.exec(firstLine);
      if (match?.[1] && stdout.includes('\n')) {
        clearTimeout(timer);
        resolve({ child, url: match[1], firstLine, output: () => stdout + stderr, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code} before listening: ${stdout} ${stderr}`));
    });
  });
}
