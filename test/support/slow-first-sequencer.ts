/**
 * Starts the longest test files first, so that the two workers end together instead of one of them
 * finishing the suite alone on a long file it picked up last (the suite's wall time is the slower worker's).
 *
 * Vitest's own order does this once its cache knows each file's duration, but a clean clone (CI, a
 * first `npm test`) has no cache, and then it keeps the glob's order: the image-build replay (30 s,
 * now `npm run test:package`) started about two thirds of the way through, the browser tests last. Here, a file's weight is its
 * cached duration when there is one, else the idle duration measured for it below, else 0.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Idle durations (ms) of the files that take over 3 s, from `npx vitest run --reporter=json`. */
const MEASURED_MS: Readonly<Record<string, number>> = {
  'test/ui/dashboard.browser.test.ts': 10_000,
  'test/webhooks/isolation.test.ts': 8_000,
  'test/proof/fuzz-invalid.test.ts': 8_000,
  'test/scenarios/faults-soak.test.ts': 6_000,
  'test/cli.test.ts': 5_500,
  'test/proof/soak.test.ts': 4_500,
  'test/proof/fuzz-valid.test.ts': 4_500,
  'test/protocol/rate-limit.test.ts': 3_500,
  'test/scenarios/shipped.test.ts': 3_500,
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      return cached?.duration ?? MEASURED_MS[file] ?? 0;
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)] as const));
    // Array.prototype.sort is stable: files of equal weight keep the glob's order.
    return Promise.resolve([...files].sort((a, b) => weights.get(b)! - weights.get(a)!));
  }
}
