/** A page of the journal's listing, bounded in bytes as it is filled (contract §3.4). */
import type { JournalEntry } from './journal-entry.js';

/**
 * A listing page being filled: its entries and, when it has a byte cap, each one's JSON (serialized
 * once, here, to be measured, and sent as it is), within `max` UTF-8 bytes. The first entry always
 * fits, so a cursor always moves on.
 */
export class Page {
  readonly data: JournalEntry[] = [];
  readonly json: string[] = [];
  private used = 0;
  constructor(private readonly max: number) {}

  /** The UTF-8 bytes of the entries' JSON so far (with a separator each). */
  get bytes(): number {
    return this.used;
  }

  /** Adds `entry` when it fits; false when the page is full. */
  add(entry: JournalEntry): boolean {
    if (this.max === Infinity) {
      this.data.push(entry);
      return true;
    }
    const json = JSON.stringify(entry);
    const bytes = Buffer.byteLength(json) + 1;
    if (this.data.length > 0 && this.used + bytes > this.max) return false;
    this.used += bytes;
    this.data.push(entry);
    this.json.push(json);
    return true;
  }
}

/** A listing: the entries, and their JSON when the page was capped in bytes (see `Page`). */
export interface JournalPage {
  data: JournalEntry[];
  has_more: boolean;
  /** Each entry's JSON, in `data`'s order; empty when the listing had no byte cap. */
  json: string[];
}
