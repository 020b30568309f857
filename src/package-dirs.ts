/**
 * The package's own directories. This module must stay directly under src/: tsc emits it as
 * dist/package-dirs.js and esbuild inlines it into dist/cli.js, and from both (as from src/) the
 * package root is one level up. A deeper file would resolve `..` differently once bundled.
 */
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const SCENARIOS_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));
