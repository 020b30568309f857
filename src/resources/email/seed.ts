/**
 * Inboxes of a new account (one mail domain per account, pinned inboxes first), and their messages:
 * realistic support threads with the account's customers, inserted oldest first so lists page
 * newest first.
 */
import type { SeedContext } from '../../fixture/account-template.js';
import type { MessageRecord } from '../../store/records.js';
import { pastTimestamp, withPinned } from '../seed-support.js';
import { seedThreads } from './threads.js';

const LOCAL_PARTS = ['hello', 'support', 'team', 'newsletter', 'billing', 'partnerships'];
const TEAMS: Record<string, string> = { support: 'support', billing: 'finance', partnerships: 'business', newsletter: 'marketing' };

/**
 * A generator: each thread of each inbox is one step (an inbox's threads were the longest step, and
 * a template may give one inbox hundreds of messages), so another tenant's request can run between
 * two threads.
 */
export function* seedInboxes(context: SeedContext): Generator<void, void, undefined> {
  const { store, faker, ids, now, count, pinned } = context;
  const word =
    faker.word
      .noun()
      .toLowerCase()
      .replace(/[^a-z]/g, '') || 'creator';
  const kind = faker.helpers.arrayElement(['studio', 'academy', 'lab', 'club']);
  const brand = `${capitalize(word)} ${capitalize(kind)}`;
  const domain = `${word}${kind}.com`;
  const used = new Set((pinned.inboxes ?? []).flatMap((i) => (i.local_part ? [i.local_part] : [])));
  const free = LOCAL_PARTS.filter((part) => !used.has(part));
  const messages: MessageRecord[] = [];
  for (const [i, pin] of withPinned(pinned.inboxes, count('inboxes', 2)).entries()) {
    const localPart = pin?.local_part ?? free.shift() ?? `inbox${i + 1}`;
    const inbox = store.write('inboxes').insert({
      object: 'inbox',
      id: pin?.id ?? ids.next('inbox'),
      address: `${localPart}@${domain}`,
      local_part: localPart,
      domain,
      display_name: pin?.display_name ?? `${brand} ${capitalize(localPart)}`,
      status: 'active',
      // Drawn whatever the pin sets, so a pinned value never shifts other records' data.
      metadata: pinnedOr(pin?.metadata, { team: TEAMS[localPart] ?? 'general', sla_hours: faker.helpers.arrayElement([4, 24, 48]) }),
      created_at: pastTimestamp(faker, now, 400),
    });
    messages.push(...(yield* seedThreads(context, inbox, count('messages_per_inbox', 12))));
    yield;
  }
  // Each timestamp parsed once, not in every comparison (a stable sort: the same order either way).
  const sorted = messages.map((message) => ({ at: Date.parse(message.timestamp), message })).sort((a, b) => a.at - b.at);
  const collection = store.write('messages');
  for (const [i, { message }] of sorted.entries()) {
    collection.insert(message);
    // A template may seed thousands: their inserts take steps of their own.
    if (i % MESSAGES_PER_STEP === MESSAGES_PER_STEP - 1) yield;
  }
}

/** Messages inserted per derivation step (~1 ms of CPU). */
const MESSAGES_PER_STEP = 250;

/** A pinned metadata object, copied (fixtures are frozen and shared), or the seeded one. */
function pinnedOr(metadata: Record<string, unknown> | undefined, seeded: Record<string, unknown>): Record<string, unknown> {
  return metadata === undefined ? seeded : structuredClone<Record<string, unknown>>(metadata);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
