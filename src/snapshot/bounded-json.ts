/**
 * JSON.stringify's text, written within a byte budget: an account too large to load back is refused
 * before its whole text is built. Members keep the order they hold, which is fixed by the code that
 * made each record (and kept by a snapshot loaded again), so the same state gives the same bytes
 * (contract §5.3); sorting them instead would make a loaded record's members come out in another
 * order than the original's in API answers (an experience's `details`, a conversion as sent).
 */

/** Thrown when the text would pass `budget` UTF-8 bytes. */
export class OverBudget extends Error {
  constructor(readonly budget: number) {
    super(`over ${budget} bytes`);
    this.name = 'OverBudget';
  }
}

export function boundedJson(value: unknown, budget = Number.POSITIVE_INFINITY): string {
  const parts: string[] = [];
  let bytes = 0;
  const push = (text: string) => {
    bytes += Buffer.byteLength(text, 'utf8');
    if (bytes > budget) throw new OverBudget(budget);
    parts.push(text);
  };
  const write = (item: unknown): void => {
    if (item === null || typeof item !== 'object') {
      // undefined members are left out by the caller; a bare undefined (never in a snapshot) is null.
      push(JSON.stringify(item) ?? 'null');
      return;
    }
    if (Array.isArray(item)) {
      // An element (a record) at a time, by JSON.stringify itself: the same text, at its speed.
      push('[');
      item.forEach((element, index) => push(`${index > 0 ? ',' : ''}${JSON.stringify(element) ?? 'null'}`));
      push(']');
      return;
    }
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record).filter((key) => record[key] !== undefined);
    push('{');
    keys.forEach((key, index) => {
      push(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      write(record[key]);
    });
    push('}');
  };
  write(value);
  return parts.join('');
}
