/**
 * The admin client's account state is typed per collection (contract §3.2 names them), from the
 * server's own `accountState`: a test reads `state.forms[0].fields` without casts.
 */
import { describe, expectTypeOf, it, expect } from 'vitest';
import type { AccountStateSnapshot } from '../../src/admin/client.js';
import type { JobSummary } from '../../src/resources/jobs/admin-summary.js';
import type { CollectionRecords, FormField } from '../../src/store/records.js';
import { startMockServer } from '../../src/server.js';

describe('the admin state as the typed client sees it (contract §3.2)', () => {
  it('gives each collection its record type, jobs summarized, credits', () => {
    type State = AccountStateSnapshot['state'];
    expectTypeOf<State['forms'][number]['fields']>().toEqualTypeOf<FormField[]>();
    expectTypeOf<State['price_variants'][number]>().toEqualTypeOf<CollectionRecords['price_variants']>();
    expectTypeOf<State['jobs'][number]>().toEqualTypeOf<JobSummary>();
    expectTypeOf<State['credits']>().toEqualTypeOf<{ balance: number; used: number }>();
  });

  it('answers what the types say', async () => {
    const mock = await startMockServer({ clock: 'frozen' });
    try {
      const { account } = await mock.admin.accounts.create({ plan: 'free' });
      const { state } = await mock.admin.accounts.get(account.id);
      const field: FormField | undefined = state.forms[0]?.fields[0];
      expect(typeof field?.label).toBe('string');
      expect(typeof state.credits.balance).toBe('number');
    } finally {
      await mock.close();
    }
  });
});
