/**
 * Issue "ship it": the package as users get it. Machines here have no Docker engine, so the
 * Dockerfile's build stage is replayed from the Dockerfile itself (test/support/dockerfile.ts): its
 * COPY lines into an empty folder, then its RUN commands. Its tarball and its /pkg folder (what the
 * runtime stage copies) are then what the tests below install, start and type-check, so the image's
 * build and the package are packed once, the way the image packs them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, type RunningCli } from '../support/cli.js';
import { npmEnv, probeInstalledLibrary } from '../support/installed-package.js';
import { copiesOf, imagePath, parseDockerfile, replayStage, type Stage } from '../support/dockerfile.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'ccm-package-'));
const running: RunningCli[] = [];
const stages = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const buildStage = stages[0]!;
const runtimeStage = stages.at(-1)!;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', env: npmEnv });
}

function lastInstruction(stage: Stage, keyword: string): string {
  const found = stage.instructions.filter((i) => i.keyword === keyword).at(-1);
  if (!found) throw new Error(`Dockerfile: the ${stage.name} stage has no ${keyword}`);
  return found.args;
}

interface BuiltImage {
  /** The image's root: the build stage's files and the runtime stage's sources, under /. */
  root: string;
  /** The tarball `npm pack` wrote in the build stage's WORKDIR. */
  tarball: string;
}

/** Runs `make` once; later calls return its result or throw its error again. */
function once<T>(make: () => T): () => T {
  let outcome: { value: T } | { error: unknown } | undefined;
  return () => {
    if (!outcome) {
      try {
        outcome = { value: make() };
      } catch (error) {
        outcome = { error };
      }
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  };
}

/** Replays the build stage once; every test needs its output, and each reports its failure. */
const buildImage = once((): BuiltImage => {
  const root = path.join(work, 'image');
  mkdirSync(root);
  replayStage(buildStage, ROOT, root, npmEnv);
  const workdir = imagePath(root, lastInstruction(buildStage, 'WORKDIR'));
  const packed = readdirSync(workdir).filter((f) => f.endsWith('.tgz'));
  if (packed.length !== 1) throw new Error(`the build stage packed ${packed.length} tarballs in ${workdir}`);
  return { root, tarball: path.join(workdir, packed[0]!) };
});

afterAll(() => {
  for (const r of running) r.child.kill('SIGKILL');
});

describe('the Dockerfile (no Docker engine here: its build stage replayed)', () => {
  it('the build stage builds from only the files it copies, and leaves every source the runtime stage copies', () => {
    const { root } = buildImage();
    const fromBuild = copiesOf(runtimeStage).filter((c) => c.from === buildStage.name);
    expect(fromBuild.length).toBeGreaterThan(0);
    for (const copy of fromBuild) for (const source of copy.sources) expect(existsSync(imagePath(root, source)), source).toBe(true);
  }, 300_000);

  it('both stages start from a Node image that is not end-of-life (Node 24, LTS to 2028-04-30)', () => {
    for (const stage of stages) expect(stage.image).toMatch(/^node:24[-.]/);
  });
});

/** `ENV A=1 B=2` lines of a stage, as one record. */
function envOf(stage: Stage): Record<string, string> {
  const pairs = stage.instructions
    .filter((i) => i.keyword === 'ENV')
    .flatMap((i) => i.args.split(/\s+/).map((kv) => kv.split('=') as [string, string]));
  return Object.fromEntries(pairs);
}

describe('the packed tarball', () => {
  it('ships the built CLI, types, fixtures and scenarios, and no sources or tests', () => {
    const listing = execFileSync('tar', ['-tzf', buildImage().tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/dist/cli.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/dist/vitest.js');
    // Start-up loads only what it needs: ajv is bundled apart and read on the first schema compile (scripts/build-dist.mjs).
    expect(listing).toContain('package/dist/schema-compiler.cjs');
    expect(listing).toContain('package/fixtures/default.json');
    // The README is a landing page: the pages it links to ship beside it.
    expect(listing).toContain('package/docs/settings.md');
    expect(listing.some((f) => f.startsWith('package/docs/screenshots/'))).toBe(false);
    expect(listing.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toBe(false);
  });

  it('runs as the Docker image does: its runtime folder, production dependencies only, its ENV and ENTRYPOINT, health, clean SIGTERM', async () => {
    const { root } = buildImage();
    const [copy] = copiesOf(runtimeStage).filter((c) => c.from === buildStage.name);
    const app = imagePath(root, copy!.sources[0]!);
    expect(existsSync(path.join(app, 'node_modules', 'koa'))).toBe(true);
    expect(existsSync(path.join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', 'typescript'))).toBe(false);

    const [command, ...args] = JSON.parse(lastInstruction(runtimeStage, 'ENTRYPOINT')) as string[];
    expect(command).toBe('node');
    const env = envOf(runtimeStage);
    expect(env).toMatchObject({ HOST: '0.0.0.0', NODE_ENV: 'production' });
    const server = await startProcess(process.execPath, args, { ...env, PORT: '0' }, app);
    running.push(server);
    // Contract §1: the line says what is bound; http://0.0.0.0:PORT is also connectable on Linux.
    expect(server.firstLine).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+/);
    const health = await fetch(`${server.url}/__admin/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const status = await fetch(`${server.url}/v1/status`, { headers: { Authorization: 'Bearer cc_test_paid_default_key' } });
    expect(status.status).toBe(200);
    // What start-up leaves for first use works from the image's files: the schema
    // compiler (dist/schema-compiler.cjs) on a body to validate, the shipped scenario files on an activation.
    const invalid = await fetch(`${server.url}/v1/web/crawl`, {
      method: 'POST',
      headers: { Authorization: 'Bearer cc_test_paid_default_key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 5 }),
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ error: { code: 'validation_failed', param: 'url' } });
    const activation = await fetch(`${server.url}/__admin/scenarios`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'rate-limited' }),
    });
    expect(activation.status).toBe(201);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 300_000);

  describe('installed in an empty project', () => {
    const project = path.join(work, 'consumer');
    /** `npm install <tarball>` once, as a client project does (its dependencies, types included). */
    const install = once(() => {
      mkdirSync(project);
      npm(['init', '-y'], project);
      npm(['install', '--omit=dev', buildImage().tarball], project);
    });

    it('starts with npx and its bin link, and its exports import', async () => {
      install();
      expect(readdirSync(path.join(project, 'node_modules', '.bin'))).toContain('creator-commerce-mock');
      const help = execFileSync('npx', ['--no-install', 'creator-commerce-mock', '--help'], { cwd: project, encoding: 'utf8' });
      expect(help).toMatch(/^Usage: creator-commerce-mock/);
      // The long-running server is started through the bin link npx resolves to, so the signal below
      // reaches the CLI itself rather than npm's wrapper shell.
      const bin = path.join(project, 'node_modules', '.bin', 'creator-commerce-mock');
      const server = await startProcess(bin, ['--port', '0'], {}, project);
      running.push(server);
      const res = await fetch(`${server.url}/v1/status`, { headers: { Authorization: 'Bearer cc_test_free_default_key' } });
      expect(res.status).toBe(200);
      const probe = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "import('creator-commerce-mock').then(m => console.log(typeof m.startMockServer, typeof m.createApp)); import('creator-commerce-mock/vitest').then(m => console.log(typeof m.default))",
        ],
        { cwd: project, encoding: 'utf8' },
      );
      expect(probe.split('\n').sort().join(' ').trim()).toBe('function function function');
      // The library's chunk reads the same dist/schema-compiler.cjs on its first compile.
      expect(probeInstalledLibrary(project)).toBe('422 validation_failed');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }, 300_000);

    it('its types resolve for a strict consumer with skipLibCheck off, with no devDependency of ours', () => {
      install();
      writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
          },
          files: ['consumer.ts'],
        }),
      );
      writeFileSync(
        path.join(project, 'consumer.ts'),
        [
          "import { createApp, startMockServer } from 'creator-commerce-mock';",
          "import { connectToMock, mockServerSetup } from 'creator-commerce-mock/vitest';",
          '/** true when T is `any`: a type the package could not resolve. */',
          'type IsAny<T> = 0 extends 1 & T ? true : false;',
          "const app = createApp({ clock: 'frozen' });",
          'const resolved: [IsAny<typeof app>, IsAny<ReturnType<typeof app.callback>>, IsAny<typeof startMockServer>] = [false, false, false];',
          'export { resolved, connectToMock, mockServerSetup };',
          '',
        ].join('\n'),
      );
      // Our own TypeScript, run on the consumer: the consumer gets only what the tarball installed.
      const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout);
      }
      expect(output).toBe('');
    }, 300_000);
  });
});
