/**
 * The protocol state's part in a world's lifecycle (src/sandbox/world-module.ts): what the world
 * keeps per account in the idempotency store, the journal and the sandbox clock's rate limiter is
 * forgotten when the account is reset or deleted (contract §4.1). Each `create` types only the part
 * it reads: this layer sits below the world.
 */
import type { IdempotencyStore } from './idempotency-store.js';
import { apiKeySubject } from './rate-limit.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RequestJournal } from './request-journal.js';

/** Remembered `Idempotency-Key` answers are the account's: gone with its state. */
export const idempotencyModule = {
  name: 'idempotency',
  create({ idempotency }: { readonly idempotency: Pick<IdempotencyStore, 'forget'> }) {
    const forget = (accountId: string) => idempotency.forget(accountId);
    return { accountReset: forget, accountDeleted: forget };
  },
};

/** The account's journal entries go: a reset account's history starts over. */
export const journalModule = {
  name: 'journal',
  create({ journal }: { readonly journal: Pick<RequestJournal, 'forget'> }) {
    const forget = (accountId: string) => void journal.forget(accountId);
    return { accountReset: forget, accountDeleted: forget };
  },
};

/**
 * The account's keys' counters on the sandbox clock's limiter. An own clock's limiter goes with its
 * time domain (the own-clock module makes a new one on reset), so only the shared one is asked.
 */
export const rateLimitModule = {
  name: 'rate-limits',
  create({ rateLimiter }: { readonly rateLimiter: Pick<RateLimiter, 'forget'> }) {
    const forget = (_accountId: string, keyIds: ReadonlySet<string>) => rateLimiter.forget([...keyIds].map(apiKeySubject));
    return { accountReset: forget, accountDeleted: forget };
  },
};
