/**
 * The documentation pages as tests read them: the README is the landing page, the rest lives in
 * docs/ (docs/README.md's map). A test that checks docs against the code reads the page it checks.
 */
import { readFileSync } from 'node:fs';

/** `docPage('scenarios')` is docs/scenarios.md; `docPage('README')` the landing page. */
export function docPage(name: string): string {
  const file = name === 'README' ? '../../README.md' : `../../docs/${name}.md`;
  return readFileSync(new URL(file, import.meta.url), 'utf8');
}
