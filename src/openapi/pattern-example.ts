/**
 * One short string that matches a regular expression, for examples in the OpenAPI document. It
 * handles what schemas write (anchors, literals, escapes, `.`, classes and negated classes,
 * `\d \w \s`, groups with alternatives, and the quantifiers `? * + {n} {n,} {n,m}`), takes the first
 * alternative and the fewest repetitions (at least one), and checks its answer: undefined when it
 * cannot make a match, so the caller falls back to something else.
 */
const CANDIDATES = 'aA0_-.x@:/ ';

interface Cursor {
  text: string;
  at: number;
}

function classMatcher(cursor: Cursor): (ch: string) => boolean {
  // cursor.at is just after `[`.
  const negated = cursor.text[cursor.at] === '^';
  if (negated) cursor.at += 1;
  const tests: Array<(ch: string) => boolean> = [];
  let first = true;
  while (cursor.at < cursor.text.length && (cursor.text[cursor.at] !== ']' || first)) {
    first = false;
    let ch = cursor.text[cursor.at]!;
    cursor.at += 1;
    if (ch === '\\') {
      const escaped = cursor.text[cursor.at]!;
      cursor.at += 1;
      const shorthand = SHORTHANDS[escaped];
      if (shorthand) {
        tests.push((c) => shorthand.test(c));
        continue;
      }
      ch = escaped;
    }
    if (cursor.text[cursor.at] === '-' && cursor.text[cursor.at + 1] !== ']' && cursor.at + 1 < cursor.text.length) {
      let end = cursor.text[cursor.at + 1]!;
      cursor.at += 2;
      if (end === '\\') {
        end = cursor.text[cursor.at]!;
        cursor.at += 1;
      }
      const [lo, hi] = [ch.codePointAt(0)!, end.codePointAt(0)!];
      tests.push((c) => c.codePointAt(0)! >= lo && c.codePointAt(0)! <= hi);
    } else {
      const literal = ch;
      tests.push((c) => c === literal);
    }
  }
  cursor.at += 1; // `]`
  const inSet = (c: string) => tests.some((test) => test(c));
  return negated ? (c) => !inSet(c) : inSet;
}

const SHORTHANDS: Record<string, RegExp> = { d: /\d/, w: /\w/, s: /\s/, D: /\D/, W: /\W/, S: /\S/ };

function pick(matches: (ch: string) => boolean): string | undefined {
  for (const ch of CANDIDATES) if (matches(ch)) return ch;
  for (let code = 33; code < 127; code++) if (matches(String.fromCharCode(code))) return String.fromCharCode(code);
  return undefined;
}

/** Reads one atom and returns the text it stands for (one repetition), or undefined. */
function atom(cursor: Cursor): string | undefined {
  const ch = cursor.text[cursor.at]!;
  cursor.at += 1;
  if (ch === '(') {
    if (cursor.text.startsWith('?:', cursor.at)) cursor.at += 2;
    return sequence(cursor, ')');
  }
  if (ch === '[') return pick(classMatcher(cursor));
  if (ch === '.') return 'a';
  if (ch === '\\') {
    const escaped = cursor.text[cursor.at]!;
    cursor.at += 1;
    const shorthand = SHORTHANDS[escaped];
    return shorthand ? pick((c) => shorthand.test(c)) : escaped;
  }
  return ch;
}

function repetitions(cursor: Cursor): number {
  const ch = cursor.text[cursor.at];
  if (ch === '?' || ch === '*') {
    cursor.at += 1;
    return 0;
  }
  if (ch === '+') {
    cursor.at += 1;
    return 1;
  }
  if (ch === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(cursor.text.slice(cursor.at));
    if (match) {
      cursor.at += match[0].length;
      return Number(match[1]);
    }
  }
  return 1;
}

/** A sequence up to `end` (or the end of the text); alternatives after the first `|` are skipped. */
function sequence(cursor: Cursor, end?: string): string | undefined {
  let out = '';
  let skipping = false;
  let depth = 0;
  while (cursor.at < cursor.text.length) {
    const ch = cursor.text[cursor.at]!;
    if (skipping) {
      cursor.at += 1;
      if (ch === '\\') cursor.at += 1;
      else if (ch === '(') depth += 1;
      else if (ch === ')' && depth > 0) depth -= 1;
      else if (ch === end && depth === 0) return out;
      continue;
    }
    if (ch === end) {
      cursor.at += 1;
      return out;
    }
    if (ch === '|') {
      skipping = true;
      cursor.at += 1;
      continue;
    }
    if (ch === '^' || ch === '$') {
      cursor.at += 1;
      continue;
    }
    const text = atom(cursor);
    if (text === undefined) return undefined;
    // Lazy or possessive markers after a quantifier change nothing for one example.
    const times = repetitions(cursor);
    if (cursor.text[cursor.at] === '?') cursor.at += 1;
    out += text.repeat(times);
  }
  return end === undefined ? out : undefined;
}

export function exampleForPattern(pattern: string): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  let text: string | undefined;
  try {
    text = sequence({ text: pattern, at: 0 });
  } catch {
    text = undefined;
  }
  return text !== undefined && regex.test(text) ? text : undefined;
}
