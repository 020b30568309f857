/**
 * The page declares the admin API's shapes itself (src/ui/page/api-types.ts): it is browser code and
 * imports nothing of the server, not even types (scripts/layers.mjs). This test is where the two meet:
 * it fails to type-check (`npm run typecheck`, and vitest's typecheck of this file) when the server's
 * answers stop fitting what the page reads.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ClockSnapshot } from '../../src/clock/virtual-clock.js';
import type { JournalEntry } from '../../src/protocol/request-journal.js';
import type { accountView } from '../../src/sandbox/lifecycle.js';
import type { ActiveScenarioView } from '../../src/scenarios/engine.js';
import type { AccountView, ActiveScenarioView as PageActiveScenario, ClockView, JournalEntryView } from '../../src/ui/page/api-types.js';

describe("the page's copy of the admin API's shapes (contract §4.4)", () => {
  it('contract §4.4: a journal entry is exactly what the journal lists', () => {
    expectTypeOf<JournalEntryView>().toEqualTypeOf<JournalEntry>();
  });

  it('contract §4.4: the clock, an account and an active scenario, as the admin API answers them, fit what the page reads', () => {
    expectTypeOf<ClockSnapshot>().toExtend<ClockView>();
    expectTypeOf<ReturnType<typeof accountView>>().toExtend<AccountView>();
    expectTypeOf<ActiveScenarioView>().toExtend<PageActiveScenario>();
  });
});
