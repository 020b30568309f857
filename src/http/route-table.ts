/**
 * The /v1 route table, built once from the operation table: a map of literal paths, then the
 * parameterised paths by segment count. A lookup is one map read for the literal paths and a short
 * segment comparison for the others, where a general router tries every route's regular expression
 * and composes the matched layers again on every request.
 *
 * Matching is exact: case-sensitive, no trailing slash, one segment per parameter. GET routes also
 * answer HEAD (as Koa does, without a body).
 */
import type { HttpMethod } from '../operations/types.js';

export interface RouteSpec<T> {
  method: HttpMethod;
  /** OpenAPI style, relative to the prefix: `/jobs/{id}`. */
  path: string;
  target: T;
}

export type RouteLookup<T> =
  | { kind: 'found'; target: T; params: Record<string, string> }
  /** The path exists with other methods: the `Allow` header's value. */
  | { kind: 'method_not_allowed'; allow: string }
  | { kind: 'missing' };

interface PathEntry<T> {
  byMethod: Map<string, T>;
  allow: string;
}

interface PatternEntry<T> extends PathEntry<T> {
  /** A literal segment, or null where a parameter goes (its name in `names`, in order). */
  segments: Array<string | null>;
  names: string[];
}

const PARAM = /^\{([a-z_]+)\}$/;

/** Percent-decoded, or undefined for a malformed escape (`%E0%A4%A`), which then matches nothing. */
function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export class RouteTable<T> {
  private readonly literal = new Map<string, PathEntry<T>>();
  private readonly patterns = new Map<number, Array<PatternEntry<T>>>();

  constructor(
    private readonly prefix: string,
    routes: ReadonlyArray<RouteSpec<T>>,
  ) {
    const entries = new Map<string, PathEntry<T> | PatternEntry<T>>();
    for (const route of routes) {
      let entry = entries.get(route.path);
      if (!entry) {
        const segments = route.path.split('/').slice(1);
        const names = segments.map((s) => PARAM.exec(s)?.[1]).filter((name): name is string => name !== undefined);
        entry =
          names.length === 0
            ? { byMethod: new Map(), allow: '' }
            : { byMethod: new Map(), allow: '', segments: segments.map((s) => (PARAM.test(s) ? null : s)), names };
        entries.set(route.path, entry);
        if ('segments' in entry) {
          const sameLength = this.patterns.get(entry.segments.length) ?? [];
          sameLength.push(entry);
          this.patterns.set(entry.segments.length, sameLength);
        } else {
          this.literal.set(prefix + route.path, entry);
        }
      }
      if (entry.byMethod.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
      entry.byMethod.set(route.method, route.target);
      if (route.method === 'GET') entry.byMethod.set('HEAD', route.target);
    }
    for (const entry of entries.values()) entry.allow = [...entry.byMethod.keys()].join(', ');
  }

  lookup(method: string, path: string): RouteLookup<T> {
    const literal = this.literal.get(path);
    if (literal) return this.answer(literal, method, {});
    if (!path.startsWith(`${this.prefix}/`)) return { kind: 'missing' };
    const segments = path.slice(this.prefix.length + 1).split('/');
    for (const pattern of this.patterns.get(segments.length) ?? []) {
      const params = this.bind(pattern, segments);
      if (params) return this.answer(pattern, method, params);
    }
    return { kind: 'missing' };
  }

  private bind(pattern: PatternEntry<T>, segments: string[]): Record<string, string> | undefined {
    const params: Record<string, string> = {};
    let name = 0;
    for (let i = 0; i < segments.length; i += 1) {
      const expected = pattern.segments[i];
      const segment = segments[i]!;
      if (expected === null) {
        const value = segment === '' ? undefined : decodeSegment(segment);
        if (value === undefined) return undefined;
        params[pattern.names[name++]!] = value;
      } else if (expected !== segment) {
        return undefined;
      }
    }
    return params;
  }

  private answer(entry: PathEntry<T>, method: string, params: Record<string, string>): RouteLookup<T> {
    const target = entry.byMethod.get(method);
    return target === undefined ? { kind: 'method_not_allowed', allow: entry.allow } : { kind: 'found', target, params };
  }
}
