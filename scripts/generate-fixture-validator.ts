/**
 * Generates src/fixture/fixture-validator.generated.js: the fixture schema's ajv validator as plain
 * code (ajv "standalone" mode), so loading a fixture at start-up validates it without compiling the
 * schema first (compiling it was ~60 ms of the CLI's cold start). Run `npm run generate` after
 * changing FIXTURE_SCHEMA; test/fixture/validator.test.ts fails while the generated file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fixtureValidatorSource } from '../src/fixture/fixture-validator-source.js';

const target = fileURLToPath(new URL('../src/fixture/fixture-validator.generated.js', import.meta.url));
writeFileSync(target, fixtureValidatorSource());
process.stdout.write(`wrote ${target}\n`);
