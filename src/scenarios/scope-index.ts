import type { Activation, RequestFacts } from './activation.js';

/** Activations of one scope value, oldest first (a Map keeps insertion order), by id. */
type Bucket = Map<string, Activation>;

/**
 * Activations by the narrowest part of their scope: the API key, else the account, else the
 * operation, else none (global). A request can only be matched by activations in its key's, its
 * account's and its operation's buckets and the global one, so it looks at those and nothing else;
 * `inScope` then checks the rest of each one's scope (an account-scoped one may name an operation).
 */
export class ScopeIndex {
  private readonly byKey = new Map<string, Bucket>();
  private readonly byAccount = new Map<string, Bucket>();
  private readonly byOperation = new Map<string, Bucket>();
  private readonly global: Bucket = new Map();

  add(activation: Activation): void {
    const [buckets, value] = this.placeOf(activation);
    if (!buckets) {
      this.global.set(activation.id, activation);
      return;
    }
    let bucket = buckets.get(value);
    if (!bucket) buckets.set(value, (bucket = new Map<string, Activation>()));
    bucket.set(activation.id, activation);
  }

  remove(activation: Activation): void {
    const [buckets, value] = this.placeOf(activation);
    if (!buckets) {
      this.global.delete(activation.id);
      return;
    }
    const bucket = buckets.get(value);
    // An emptied bucket goes too: nothing is kept for a tenant whose activations are all used up.
    if (bucket?.delete(activation.id) && bucket.size === 0) buckets.delete(value);
  }

  /** The activations in scope of the request, newest first. */
  matching(facts: RequestFacts): Activation[] {
    const found: Activation[] = [];
    let sources = 0;
    for (const bucket of [
      facts.apiKeyId === null ? undefined : this.byKey.get(facts.apiKeyId),
      facts.accountId === null ? undefined : this.byAccount.get(facts.accountId),
      this.byOperation.get(facts.operation.operationId),
      this.global,
    ]) {
      if (!bucket || bucket.size === 0) continue;
      sources += 1;
      for (const activation of bucket.values()) if (activation.inScope(facts)) found.push(activation);
    }
    // Each bucket is oldest first; merged from several, activation order decides.
    return sources > 1 ? found.sort((a, b) => b.seq - a.seq) : found.reverse();
  }

  /** Activations narrowed to no account and no key: the global ones and those of `operationId`. */
  *forEveryCaller(operationId: string): Generator<Activation> {
    yield* this.global.values();
    yield* this.byOperation.get(operationId)?.values() ?? [];
  }

  private placeOf(activation: Activation): [Map<string, Bucket> | undefined, string] {
    const { apiKeyId, accountId, operationId } = activation.scope;
    if (apiKeyId !== null) return [this.byKey, apiKeyId];
    if (accountId !== null) return [this.byAccount, accountId];
    if (operationId !== null) return [this.byOperation, operationId];
    return [undefined, ''];
  }
}
