/**
 * Generates, from FIXTURE_SCHEMA:
 * - src/fixture/fixture-validator.generated.js: the schema's ajv validator as plain code (ajv
 *   "standalone" mode), so loading a fixture at start-up validates it without compiling the schema
 *   first (compiling it was ~60 ms of the CLI's cold start);
 * - fixtures/fixture.schema.json: the same schema published for editors and users (docs/fixtures.md).
 * Run `npm run generate` after changing FIXTURE_SCHEMA; test/fixture/validator.test.ts and
 * test/fixture/json-schema.test.ts fail while a generated file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fixtureJsonSchemaText } from '../src/fixture/fixture-json-schema.js';
import { fixtureValidatorSource } from '../src/fixture/fixture-validator-source.js';

const outputs: [string, () => string][] = [
  ['../src/fixture/fixture-validator.generated.js', fixtureValidatorSource],
  ['../fixtures/fixture.schema.json', fixtureJsonSchemaText],
];
for (const [relative, generate] of outputs) {
  const target = fileURLToPath(new URL(relative, import.meta.url));
  writeFileSync(target, generate());
  process.stdout.write(`wrote ${target}\n`);
}
