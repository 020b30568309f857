/**
 * What start-up leaves for after listen (src/warm-up.ts): faker, ajv and every validator, prepared in
 * slices that yield to requests; a request that comes first compiles only its own validators. No
 * timing is asserted: the counts of slices and the order of work are what the rule is about.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_OPERATIONS } from '../../src/admin/operations.js';
import { createAppWithOperations } from '../../src/app.js';
import { listApiKeys } from '../../src/resources/api-keys/operations.js';
import { listExperiences } from '../../src/resources/experiences/operations.js';
import { OPERATIONS } from '../../src/resources/index.js';
import { validatorsCompiled } from '../../src/operations/validation.js';
import { fakerLoaded } from '../../src/random.js';
import { warmUp, warmUpSteps, type WarmUpStep } from '../../src/warm-up.js';
import { bearer, client, FROZEN_AT, KEYS } from '../support/harness.js';
import { runCli } from '../support/cli.js';

/** A step that takes longer than a slice's share, so that each slice holds exactly one. */
function longStep(log: string[], name: string): WarmUpStep {
  return () => {
    log.push(name);
    const until = performance.now() + 6;
    while (performance.now() < until) {
      // Busy on purpose: the step must outlast the slice's share of the turn.
    }
  };
}

describe('background work after listen', () => {
  it('runs in several turns, and work queued meanwhile runs between two of them', async () => {
    const log: string[] = [];
    const steps = ['a', 'b', 'c', 'd'].map((name) => longStep(log, name));
    // Queued by the first step, as a request read during it would be: it must not wait for the rest.
    const first = steps[0]!;
    steps[0] = () => {
      setImmediate(() => log.push('other work'));
      first();
    };
    const work = warmUp(steps, 0);
    await work.done;
    expect(work.slices).toBe(4);
    expect(log).toEqual(['a', 'other work', 'b', 'c', 'd']);
  });

  it('waits for a step that returns a promise before the next slice', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const work = warmUp([() => log.push('first'), () => gate.then(() => log.push('gate')), () => log.push('last')], 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['first']);
    release();
    await work.done;
    expect(log).toEqual(['first', 'gate', 'last']);
  });

  it('lets a request compile its own operation alone while the background work waits', async () => {
    // Copies: validators are cached per declaration for the process, and other test files share it.
    const experiences = { ...listExperiences };
    const keys = { ...listApiKeys };
    const app = createAppWithOperations({ clock: FROZEN_AT }, [experiences, keys]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const work = warmUp([() => gate, ...warmUpSteps([experiences, keys])], 0);
    const res = await client(app).get('/v1/experiences?limit=2').set(bearer(KEYS.paid));
    expect(res.status).toBe(200);
    expect(validatorsCompiled(experiences)).toBe(true);
    // The background work is still at its first step: the request compiled its own operation and no other.
    expect(validatorsCompiled(keys)).toBe(false);
    release();
    await work.done;
    expect(validatorsCompiled(keys)).toBe(true);
  });

  it("loads faker and compiles every operation's validators", async () => {
    const work = warmUp(warmUpSteps(), 0);
    await work.done;
    expect(fakerLoaded()).toBe(true);
    for (const op of OPERATIONS) expect(validatorsCompiled(op), op.operationId).toBe(true);
  });

  it('stops before its next slice when told (the server tells it when it closes)', async () => {
    const log: string[] = [];
    const work = warmUp([() => log.push('ran')], 0);
    work.stop();
    await work.done;
    expect(work.slices).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual([]);
  });
});

/** The ajv the sandbox compiles with (the same module instance as its own `require`). */
const ajvPrototype = (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv.prototype;

describe('each background step compiles one schema at most', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an operation with a query, path and body schema, or an admin route with a body and a query, takes a step per schema', () => {
    // Copies, schemas included: validators are cached per declaration and per schema for the process.
    const operations = OPERATIONS.map((op) => ({ ...op }));
    const admin = ADMIN_OPERATIONS.map((operation) => ({
      ...operation,
      ...(operation.body ? { body: { ...operation.body } } : {}),
      ...(operation.query ? { query: { ...operation.query } } : {}),
    }));
    const steps = warmUpSteps(operations, admin);
    const compile = vi.spyOn(ajvPrototype, 'compile');
    const perStep = steps.map((step) => {
      const before = compile.mock.calls.length;
      step();
      return compile.mock.calls.length - before;
    });
    // A step compiles one schema at most, and together they compile every one (the same work as before).
    expect(Math.max(...perStep)).toBe(1);
    const schemas = perStep.reduce((a, b) => a + b, 0);
    const declared =
      operations.reduce(
        (n, op) => n + (op.params ? 1 : 0) + (op.body ? 1 : 0) + (op.query && Object.keys(op.query.properties ?? {}).length > 0 ? 1 : 0),
        0,
      ) + admin.reduce((n, operation) => n + (operation.body ? 1 : 0) + (operation.query ? 1 : 0), 0);
    expect(schemas).toBe(declared);
    for (const op of operations) expect(validatorsCompiled(op), op.operationId).toBe(true);
  });
});

describe('start-up still refuses before listening', () => {
  it('a fixture whose pinned records pass the record budget stops the CLI (exit 2, no listening line)', async () => {
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
      accounts: { pinned?: { inboxes?: { metadata?: unknown }[] } }[];
    };
    fixture.accounts[0]!.pinned!.inboxes![0]!.metadata = { note: 'x'.repeat(300 * 1024) };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ccm-startup-')), 'heavy.json');
    writeFileSync(file, JSON.stringify(fixture));
    const result = await runCli(['--fixtures', file, '--record-budget', '256KiB', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain('listening');
    expect(result.stderr).toContain('heavy.json');
  });

  it('an unknown setting stops the CLI before it listens', async () => {
    const result = await runCli(['--port', '0', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain('listening');
  });
});
