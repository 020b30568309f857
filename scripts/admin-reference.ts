/**
 * The reference table of docs/admin-api.md, rendered from the admin route declarations
 * (src/admin/operations.ts): `npm run generate` writes it between the page's markers, and
 * test/admin/reference.test.ts fails while the page differs from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ADMIN_FEATURES } from '../src/admin/operations.js';
import { pathOf, methodOf, type AdminOperation } from '../src/admin/route-kit.js';
import type { JsonSchema } from '../src/operations/types.js';

export const ADMIN_REFERENCE_FILE = fileURLToPath(new URL('../docs/admin-api.md', import.meta.url));
export const START_MARKER = '<!-- admin routes: generated from src/admin/operations.ts by `npm run generate` -->';
export const END_MARKER = '<!-- end of admin routes -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function members(schema: JsonSchema): Array<{ name: string; property: JsonSchema; required: boolean }> {
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({
    name,
    property,
    required: required.has(name),
  }));
}

/** `limit` (1–1000, default 100): the bounds a query parameter declares. */
function queryParam(name: string, property: JsonSchema): string {
  const notes: string[] = [];
  if (typeof property.minimum === 'number' && typeof property.maximum === 'number') notes.push(`${property.minimum}–${property.maximum}`);
  if (property.default !== undefined) notes.push(`default ${JSON.stringify(property.default)}`);
  if (Array.isArray(property.enum)) notes.push(property.enum.map((value) => `\`${String(value)}\``).join(', '));
  return `\`${name}\`${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

function takes(operation: AdminOperation): string {
  const parts: string[] = [];
  if (operation.body) {
    parts.push(
      `\`{${members(operation.body)
        .map(({ name, required }) => `"${name}"${required ? '' : '?'}`)
        .join(', ')}}\``,
    );
  }
  if (operation.query)
    parts.push(
      `query ${members(operation.query)
        .map(({ name, property }) => queryParam(name, property))
        .join(', ')}`,
    );
  return parts.join('; ');
}

function answer(operation: AdminOperation): string {
  const description = operation.answer.description.replace(/\.$/, '');
  const errors = operation.errors.length > 0 ? `; errors of its own: ${operation.errors.join(', ')}` : '';
  return `${operation.answer.status} ${description}${errors}`;
}

function row(operation: AdminOperation): string {
  const route = `\`${methodOf(operation).toUpperCase()} /__admin${pathOf(operation)}\``;
  const what = operation.description ? `${operation.summary}. ${operation.description}` : `${operation.summary}.`;
  const client = operation.client.map((call) => (call.startsWith('(') ? call : `\`${call}\``)).join(', ');
  return `| ${[route, what, takes(operation), answer(operation), client].map(cell).join(' | ')} |`;
}

export function adminReferenceTable(): string {
  const lines = ['| call | what it does | takes | answer | client |', '|---|---|---|---|---|'];
  for (const feature of ADMIN_FEATURES) {
    lines.push(`| **${feature.tag}** | ${cell(feature.description)} | | | |`);
    for (const operation of feature.operations) lines.push(row(operation));
  }
  return lines.join('\n');
}

/** The page with its generated section replaced by `table`. */
export function withReferenceTable(page: string, table = adminReferenceTable()): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`${ADMIN_REFERENCE_FILE} has no generated section (${START_MARKER} … ${END_MARKER})`);
  return `${page.slice(0, start + START_MARKER.length)}\n${table}\n${page.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(ADMIN_REFERENCE_FILE, withReferenceTable(readFileSync(ADMIN_REFERENCE_FILE, 'utf8')));
  process.stdout.write(`wrote ${ADMIN_REFERENCE_FILE}\n`);
}
