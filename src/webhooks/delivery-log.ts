/**
 * The delivery log of contract §4.3, bounded in count and in bytes (README "Testing your webhook
 * receiver"): per account at most `count` deliveries and `bytes` bytes, and for the whole sandbox at
 * most `sandboxBytes`, so thousands of tenants cannot sum to gigabytes.
 *
 * What a delivery costs: its payload, counted once per event however many endpoints and copies send
 * it (they share the one encoded body), plus ENTRY_OVERHEAD for its record and attempts.
 *
 * What goes first, when one is added and a bound is passed:
 * 1. the account's own oldest, while it is over its count or its bytes;
 * 2. then, while the sandbox is over its bytes, the oldest of the heaviest account (the one whose
 *    deliveries weigh the most; of equal ones, the one that changed longest ago): a tenant flooding
 *    the sandbox pays for it, and a light neighbour's deliveries stay listed. An indexed heap finds
 *    it in O(log n), never walking the accounts.
 * The delivery just added is never dropped by its own arrival, so an event always gets its first
 * attempt. `onDrop` tells the owner, who makes sure a dropped pending delivery is never sent.
 *
 * Entries sit on two doubly linked lists (the sandbox's and their account's), in creation order, so
 * adding, dropping and listing newest first never copy the log.
 */
import { HeaviestFirst } from '../store/heaviest-first.js';

/**
 * A delivery's body: the JSON sent, encoded once per event (outside the V8 heap) and shared by every
 * delivery of the event, every attempt and every retry: the same bytes are signed, sent and listed.
 */
export interface LoggedPayload {
  readonly body: Buffer;
  /** UTF-8 bytes of the body: what is sent, and what the budget counts (a Buffer holds exactly that). */
  readonly bytes: number;
}

export interface LogEntry {
  readonly id: string;
  readonly accountId: string;
  readonly payload: LoggedPayload;
}

export interface LogBudget {
  /** Deliveries per account. */
  count: number;
  /** Bytes per account. */
  bytes: number;
  /** Bytes of every account together. */
  sandboxBytes: number;
}

/** What a delivery costs beside its payload: its record, ids, and up to eight attempts with their errors. */
export const ENTRY_OVERHEAD = 1024;

/**
 * A payload made once per event and shared by its deliveries: `parts` (JSON text, joined) written
 * straight into one Buffer, so no joined string is ever made (a megabyte object's JSON would be
 * copied once more to flatten it) and no attempt encodes the body again.
 */
export function loggedPayload(...parts: string[]): LoggedPayload {
  let bytes = 0;
  for (const part of parts) bytes += Buffer.byteLength(part);
  const body = Buffer.allocUnsafeSlow(bytes);
  let at = 0;
  for (const part of parts) at += body.write(part, at);
  return { body, bytes };
}

interface Node<T> {
  readonly entry: T;
  prev: Node<T> | undefined;
  next: Node<T> | undefined;
  accountPrev: Node<T> | undefined;
  accountNext: Node<T> | undefined;
}

interface AccountLog<T> {
  head: Node<T> | undefined;
  tail: Node<T> | undefined;
  count: number;
  bytes: number;
  /** How many of the account's deliveries hold each payload: charged when the first comes, freed when the last goes. */
  readonly holders: Map<LoggedPayload, number>;
}

export class DeliveryLog<T extends LogEntry> {
  private readonly nodes = new Map<string, Node<T>>();
  private readonly accounts = new Map<string, AccountLog<T>>();
  /** Every account with deliveries, the heaviest first. */
  private readonly byBytes = new HeaviestFirst<AccountLog<T>>();
  private head: Node<T> | undefined;
  private tail: Node<T> | undefined;
  private total = 0;

  constructor(
    private readonly budget: LogBudget,
    private readonly onDrop: (entry: T) => void,
  ) {}

  get(id: string): T | undefined {
    return this.nodes.get(id)?.entry;
  }

  /** Still in the log (not dropped, its account not reset or deleted since). */
  holds(entry: T): boolean {
    return this.nodes.get(entry.id)?.entry === entry;
  }

  /** Bytes the log counts: one account's, or the sandbox's. */
  bytes(accountId?: string): number {
    return accountId === undefined ? this.total : (this.accounts.get(accountId)?.bytes ?? 0);
  }

  add(entry: T): void {
    let account = this.accounts.get(entry.accountId);
    if (!account)
      this.accounts.set(entry.accountId, (account = { head: undefined, tail: undefined, count: 0, bytes: 0, holders: new Map() }));
    const node: Node<T> = { entry, prev: this.tail, next: undefined, accountPrev: account.tail, accountNext: undefined };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    if (account.tail) account.tail.accountNext = node;
    else account.head = node;
    account.tail = node;
    account.count++;
    this.nodes.set(entry.id, node);
    const holders = account.holders.get(entry.payload) ?? 0;
    account.holders.set(entry.payload, holders + 1);
    this.charge(account, ENTRY_OVERHEAD + (holders === 0 ? entry.payload.bytes : 0));

    const { count, bytes, sandboxBytes } = this.budget;
    while (account.count > 1 && (account.count > count || account.bytes > bytes)) this.drop(account.head!);
    for (let victim = this.heaviestBut(node); victim && this.total > sandboxBytes; victim = this.heaviestBut(node)) {
      this.drop(victim.head!);
    }
  }

  /** The heaviest account, unless all it holds is `added` (then the next heaviest): what the sandbox budget drops from. */
  private heaviestBut(added: Node<T>): AccountLog<T> | undefined {
    const heaviest = this.byBytes.heaviest();
    if (!heaviest || heaviest.head !== added) return heaviest;
    this.byBytes.delete(heaviest);
    const next = this.byBytes.heaviest();
    this.byBytes.set(heaviest, heaviest.bytes);
    return next;
  }

  /** An account reset or deleted: its deliveries leave the log (the owner stops them itself; no `onDrop`). */
  forgetAccount(accountId: string): void {
    const account = this.accounts.get(accountId);
    if (!account) return;
    for (let node = account.head; node; node = node.accountNext) {
      this.unlink(node);
      this.nodes.delete(node.entry.id);
    }
    this.total -= account.bytes;
    this.accounts.delete(accountId);
    this.byBytes.delete(account);
  }

  /** Newest first: one account's, or the sandbox's. Lazy: a listing reads only as far as it shows. */
  *newestFirst(accountId?: string): Generator<T> {
    if (accountId !== undefined) {
      for (let node = this.accounts.get(accountId)?.tail; node; node = node.accountPrev) yield node.entry;
      return;
    }
    for (let node = this.tail; node; node = node.prev) yield node.entry;
  }

  private charge(account: AccountLog<T>, bytes: number): void {
    account.bytes += bytes;
    this.total += bytes;
    this.byBytes.set(account, account.bytes);
  }

  private drop(node: Node<T>): void {
    const { entry } = node;
    const account = this.accounts.get(entry.accountId)!;
    this.unlink(node);
    if (node.accountPrev) node.accountPrev.accountNext = node.accountNext;
    else account.head = node.accountNext;
    if (node.accountNext) node.accountNext.accountPrev = node.accountPrev;
    else account.tail = node.accountPrev;
    account.count--;
    this.nodes.delete(entry.id);
    const holders = account.holders.get(entry.payload)! - 1;
    if (holders === 0) account.holders.delete(entry.payload);
    else account.holders.set(entry.payload, holders);
    this.charge(account, -(ENTRY_OVERHEAD + (holders === 0 ? entry.payload.bytes : 0)));
    if (account.count === 0) this.accounts.delete(entry.accountId);
    this.onDrop(entry);
  }

  /** Off the sandbox's list (the account's list is the caller's to mend, or dropped whole). */
  private unlink(node: Node<T>): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
  }
}
