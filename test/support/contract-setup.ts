/**
 * Loaded before every test file (vitest `setupFiles`): a test fails when any /v1 response it
 * received through the harness is not described by the OpenAPI document (test/support/contract.ts).
 */
import { afterAll, afterEach } from 'vitest';
import { takeContractViolations } from './contract.js';

function failOnViolations(when: string): void {
  const violations = takeContractViolations();
  if (violations.length === 0) return;
  throw new Error(`${violations.length} response(s) ${when} are not described by the OpenAPI document:\n  ${violations.join('\n  ')}`);
}

afterEach(() => failOnViolations('received by this test'));
afterAll(() => failOnViolations('received outside a test (beforeAll/afterAll)'));
