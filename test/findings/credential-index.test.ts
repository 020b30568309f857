/**
 * Contract §5.1: account reset and delete, and a change of an account's rules, act on that account's
 * credentials only: found through an index per account, not by walking every credential the sandbox
 * watches, and kept right when the bound on watched credentials drops the oldest.
 */
import { describe, expect, it } from 'vitest';
import { FindingRules } from '../../src/findings/rules.js';
import { obs } from './observations.js';

/** A failed request of the key: its credential now has a run of retries pending, so a state. */
function failedOnce(rules: FindingRules, accountId: string, apiKeyId: string): void {
  rules.request(obs({ accountId, apiKeyId, method: 'POST', path: '/v1/auth/keys', operationId: 'createApiKey', status: 500 }));
}

describe('credential states per account (contract §5.1)', () => {
  it('forgetting an account drops its credentials and leaves every other account’s', () => {
    const rules = new FindingRules();
    for (let i = 0; i < 3; i++) failedOnce(rules, 'acct_a', `key_a${i}`);
    for (let i = 0; i < 2; i++) failedOnce(rules, 'acct_b', `key_b${i}`);
    expect(rules.credentials).toBe(5);
    rules.forget('acct_a');
    expect(rules.credentials).toBe(2);
    expect(rules.watches('key_b0')).toBe(true);
    expect(rules.watches('key_a0')).toBe(false);
    rules.forget('acct_b');
    expect(rules.credentials).toBe(0);
  });

  it('a change of rules prunes only that account’s states', () => {
    const rules = new FindingRules();
    failedOnce(rules, 'acct_a', 'key_a');
    failedOnce(rules, 'acct_b', 'key_b');
    const allOff = new Set(['retry-without-backoff', 'write-retried-without-idempotency-key', 'non-retryable-retried'] as const);
    rules.rulesChanged('acct_a', allOff);
    expect(rules.watches('key_a')).toBe(false);
    expect(rules.watches('key_b')).toBe(true);
  });

  it('credentials dropped by the bound leave the index too: a later forget finds exactly what is left', () => {
    const rules = new FindingRules();
    failedOnce(rules, 'acct_old', 'key_old');
    // 10,000 credentials at most: the oldest (acct_old's) goes to make room.
    for (let i = 0; i < 10_000; i++) failedOnce(rules, 'acct_many', `key_${i}`);
    expect(rules.watches('key_old')).toBe(false);
    expect(rules.credentials).toBe(10_000);
    rules.forget('acct_old');
    expect(rules.credentials).toBe(10_000);
    // The account comes back: its new state is indexed afresh and forgotten with it.
    failedOnce(rules, 'acct_old', 'key_old');
    rules.forget('acct_old');
    expect(rules.watches('key_old')).toBe(false);
    rules.forget('acct_many');
    expect(rules.credentials).toBe(0);
  });
});
