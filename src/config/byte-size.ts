/**
 * Byte sizes as a user types them for the budgets of the sandbox (README "Budgets"): a number of
 * bytes, or digits with a binary unit (`64KiB`, `16MiB`, `1GiB`; `K`, `M`, `G`, `KB`, `MB`, `GB`
 * mean the same powers of 1,024, as in Node's and Docker's memory flags). One parser so every budget
 * reads and refuses the same way.
 */
const UNITS: Readonly<Record<string, number>> = Object.assign(Object.create(null) as Record<string, number>, {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
});

const SIZE = /^\s*(\d+)\s*([a-z]*)\s*$/i;

/** Bytes of `value` (a non-negative integer, or a string like `16MiB`); undefined when it is neither. */
export function parseByteSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = SIZE.exec(value);
  if (!match) return undefined;
  const unit = UNITS[match[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Number(match[1]) * unit;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** A size for messages and docs: `65536` → `64 KiB`, `1536` → `1.5 KiB`. */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} B`;
}
