/**
 * The README is a landing page a newcomer reads in minutes: at most about 300 lines, and every page
 * of docs/ reachable from it (directly or through docs/README.md). Every relative link and anchor
 * of the README and the docs resolves, so moving a section never leaves a dead link behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = path.join(ROOT, 'docs');
const pages = [
  path.join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(DOCS, f)),
];

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replaceAll(' ', '-');
}

function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, '');
}

function anchorsOf(file: string): Set<string> {
  return new Set([...withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.*)$/gm)].map((m) => slug(m[1]!)));
}

function linksOf(file: string): string[] {
  return [...withoutCode(readFileSync(file, 'utf8')).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^(https?:|mailto:)/.test(href));
}

describe('the README as a landing page', () => {
  it('is at most about 300 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('reaches every page of docs/, directly or through docs/README.md', () => {
    const linked = (file: string) => new Set(linksOf(file).map((href) => path.resolve(path.dirname(file), href.split('#')[0]!)));
    const reached = new Set([...linked(path.join(ROOT, 'README.md')), ...linked(path.join(DOCS, 'README.md'))]);
    const unreached = pages.filter((file) => !file.endsWith(`${path.sep}README.md`) && !reached.has(file));
    expect(unreached.map((file) => path.relative(ROOT, file))).toEqual([]);
  });

  it.each(pages.map((file) => [path.relative(ROOT, file), file]))('every relative link and anchor of %s resolves', (_, file) => {
    const dead: string[] = [];
    for (const href of linksOf(file)) {
      const [target, anchor] = href.split('#') as [string, string | undefined];
      const resolved = target === '' ? file : path.resolve(path.dirname(file), target);
      if (!existsSync(resolved)) dead.push(href);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) dead.push(href);
    }
    expect(dead).toEqual([]);
  });
});
