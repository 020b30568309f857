import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import SlowFirstSequencer from './slow-first-sequencer.js';

const ROOT = '/repo';

function spec(file: string): TestSpecification {
  return { moduleId: `${ROOT}/${file}`, project: { name: 'sandbox' } } as unknown as TestSpecification;
}

function sequencer(cachedMs: Record<string, number>): SlowFirstSequencer {
  const ctx = {
    config: { root: ROOT },
    cache: { getFileTestResults: (key: string) => (key in cachedMs ? { duration: cachedMs[key], failed: false } : undefined) },
  };
  return new SlowFirstSequencer(ctx as unknown as Vitest);
}

const files = ['test/a.test.ts', 'test/cli.test.ts', 'test/b.test.ts', 'test/ui/dashboard.browser.test.ts'];

describe('the longest files start first', () => {
  it('with no cache (a clean clone), the measured long files lead and the rest keep their order', async () => {
    const sorted = await sequencer({}).sort(files.map(spec));
    expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
      'test/ui/dashboard.browser.test.ts',
      'test/cli.test.ts',
      'test/a.test.ts',
      'test/b.test.ts',
    ]);
  });

  it('a duration in the cache outranks the measured table', async () => {
    const sorted = await sequencer({ 'sandbox:test/b.test.ts': 60_000, 'sandbox:test/ui/dashboard.browser.test.ts': 1 }).sort(
      files.map(spec),
    );
    expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
      'test/b.test.ts',
      'test/cli.test.ts',
      'test/ui/dashboard.browser.test.ts',
      'test/a.test.ts',
    ]);
  });
});
