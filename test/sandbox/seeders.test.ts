import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/options.js';
import { ACCOUNT_SEEDERS } from '../../src/resources/index.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';

describe("the sandbox receives the resources' seeders explicitly", () => {
  const options = resolveOptions({ clock: '2026-01-01T00:00:00Z' });

  it('a sandbox given no seeders boots accounts with empty collections', () => {
    const { store } = new Sandbox(options, Date.now, [], []).world;
    const account = store.forAccount(store.accountIds()[0]!);
    expect(account?.collection('customers').size).toBe(0);
  });

  it('the seeders given run on every account the world boots', () => {
    const { store } = new Sandbox(options, Date.now, [], ACCOUNT_SEEDERS).world;
    const account = store.forAccount(store.accountIds()[0]!);
    expect(account?.collection('customers').size).toBeGreaterThan(0);
  });
});
