/**
 * The findings kept, per account (contract §5.1): past `maxPerAccount` (1,000) or `bytesPerAccount`
 * the oldest of that account go first. Requests without a known key keep theirs in one bucket of
 * their own, bounded the same way. An account with no findings has no bucket: it holds nothing.
 */
import { RULES, type Finding, type RaisedFinding, type RuleName, type Severity } from './finding.js';

/** Findings kept per account, then the oldest go (contract §5.1). */
export const MAX_FINDINGS_PER_ACCOUNT = 1000;
/**
 * UTF-8 bytes of findings (their JSON) kept per account. A finding weighs 400–900 B (its message and
 * up to a dozen request ids), so 1,000 of them fit; a message never exceeds ~1 KiB.
 */
export const DEFAULT_FINDINGS_BYTES_PER_ACCOUNT = 1024 * 1024;

/** The bucket of requests without a known key (an account id is never empty). */
const ANONYMOUS = '';

interface Kept {
  /** Order of creation across every bucket: listings of all accounts merge on it. */
  readonly seq: number;
  readonly bytes: number;
  readonly finding: Finding;
}

class Bucket {
  /** Oldest first. */
  items: Kept[] = [];
  bytes = 0;
  constructor(readonly tag: string) {}
}

export interface FindingFilter {
  account_id?: string | undefined;
  api_key_id?: string | undefined;
  rule?: string | undefined;
  severity?: string | undefined;
  starting_after?: string | undefined;
  limit: number;
}

export class UnknownFindingCursor extends Error {
  constructor(readonly cursor: string) {
    super(`no finding '${cursor}'`);
  }
}

/** FNV-1a of the bucket name, 8 hex digits: the account part of a finding id. */
function tagOf(name: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export class FindingStore {
  private readonly buckets = new Map<string, Bucket>();
  /**
   * Findings made per account so far (ids are per account, so one tenant's ids never depend on
   * another's traffic): kept apart from the buckets, so that an id is never given
   * twice while the world lives (a journal entry's `finding_ids` or a page cursor names one
   * finding), whatever DELETE, account reset or delete dropped. One number per account that ever
   * raised one; `POST /__admin/reset` makes a new store.
   */
  private readonly made = new Map<string, number>();
  private seq = 0;

  constructor(
    readonly maxPerAccount = MAX_FINDINGS_PER_ACCOUNT,
    readonly bytesPerAccount = DEFAULT_FINDINGS_BYTES_PER_ACCOUNT,
  ) {}

  /** Keeps a finding and returns it, with its id (`fnd_` + the account's tag + its count there). */
  add(raised: RaisedFinding, createdAt: string): Finding {
    const name = raised.account_id ?? ANONYMOUS;
    let bucket = this.buckets.get(name);
    if (!bucket) this.buckets.set(name, (bucket = new Bucket(tagOf(name))));
    const made = (this.made.get(name) ?? 0) + 1;
    this.made.set(name, made);
    const { severity, section } = RULES[raised.rule];
    const finding: Finding = {
      id: `fnd_${bucket.tag}${String(made).padStart(8, '0')}`,
      object: 'finding',
      rule: raised.rule,
      severity,
      section,
      message: raised.message,
      account_id: raised.account_id,
      api_key_id: raised.api_key_id,
      operation_id: raised.operation_id,
      request_ids: raised.request_ids,
      delivery_ids: raised.delivery_ids,
      created_at: createdAt,
    };
    const bytes = Buffer.byteLength(JSON.stringify(finding));
    this.seq += 1;
    bucket.items.push({ seq: this.seq, bytes, finding });
    bucket.bytes += bytes;
    // The newest always stays, even alone over the budget (a message is ~1 KiB at most).
    while (bucket.items.length > 1 && (bucket.items.length > this.maxPerAccount || bucket.bytes > this.bytesPerAccount)) {
      bucket.bytes -= bucket.items.shift()!.bytes;
    }
    return finding;
  }

  /** How many findings are kept, and what they weigh (tests of the bounds). */
  size(accountId?: string | null): { count: number; bytes: number } {
    const buckets = accountId === undefined ? [...this.buckets.values()] : [this.buckets.get(accountId ?? ANONYMOUS)].filter((b) => !!b);
    return buckets.reduce((sum, b) => ({ count: sum.count + b.items.length, bytes: sum.bytes + b.bytes }), { count: 0, bytes: 0 });
  }

  /** Every finding kept, every account's, oldest first (the `--report` file). */
  all(): Finding[] {
    return [...this.buckets.values()]
      .flatMap((bucket) => bucket.items)
      .sort((a, b) => a.seq - b.seq)
      .map((kept) => kept.finding);
  }

  /** Newest first, filtered; `starting_after` names the last finding of the previous page. */
  list(filter: FindingFilter): { data: Finding[]; has_more: boolean } {
    let kept: Kept[];
    if (filter.account_id !== undefined) {
      kept = [...(this.buckets.get(filter.account_id)?.items ?? [])].reverse();
    } else {
      kept = [...this.buckets.values()].flatMap((bucket) => bucket.items).sort((a, b) => b.seq - a.seq);
    }
    const matches = (f: Finding) =>
      (filter.api_key_id === undefined || f.api_key_id === filter.api_key_id) &&
      (filter.rule === undefined || f.rule === (filter.rule as RuleName)) &&
      (filter.severity === undefined || f.severity === (filter.severity as Severity));
    let found = kept.filter((k) => matches(k.finding)).map((k) => k.finding);
    if (filter.starting_after !== undefined) {
      const at = found.findIndex((f) => f.id === filter.starting_after);
      if (at === -1) throw new UnknownFindingCursor(filter.starting_after);
      found = found.slice(at + 1);
    }
    return { data: found.slice(0, filter.limit), has_more: found.length > filter.limit };
  }

  /** Drops one account's findings (null: those of requests without a known key), or all; returns how many. */
  clear(accountId?: string | null): number {
    if (accountId === undefined) {
      const { count } = this.size();
      this.buckets.clear();
      return count;
    }
    const name = accountId ?? ANONYMOUS;
    const count = this.buckets.get(name)?.items.length ?? 0;
    this.buckets.delete(name);
    return count;
  }
}
