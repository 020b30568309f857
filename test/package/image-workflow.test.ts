/**
 * The image the docs' GitHub Actions example runs as a service container is built and pushed by
 * .github/workflows/image.yml (README "Docker sidecar"): the file must parse as a workflow and build
 * this repository's Dockerfile, or the example points at an image nobody has.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; steps: Step[] }>;
}

const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/image.yml'), 'utf8')) as Workflow;

describe('the image workflow (.github/workflows/image.yml)', () => {
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const build = steps.find((step) => step.uses?.startsWith('docker/build-push-action@'));

  it('builds this repository’s Dockerfile and pushes it', () => {
    expect(build?.with?.file).toBe('./Dockerfile');
    expect(existsSync(path.join(ROOT, String(build?.with?.file)))).toBe(true);
    expect(build?.with?.push).toBe(true);
  });

  it('pushes to the registry the docs name, with the permission to write packages', () => {
    const meta = steps.find((step) => step.uses?.startsWith('docker/metadata-action@'));
    expect(String(meta?.with?.images)).toBe('ghcr.io/${{ github.repository_owner }}/creator-commerce-mock');
    expect(workflow.permissions.packages).toBe('write');
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('ghcr.io/<owner>/creator-commerce-mock');
  });

  it('runs on pushes to main and on version tags', () => {
    expect(workflow.on.push).toEqual({ branches: ['main'], tags: ['v*'] });
  });
});
