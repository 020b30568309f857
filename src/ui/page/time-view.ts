/**
 * An instant as the page shows it: a `<time>` that never wraps (styles.css), so
 * `2026-01-15T12:00:00.000Z` stays one token in a narrow column instead of breaking at a hyphen.
 */
import { h, type VNode } from './vnode.js';

export function timestamp(iso: string, attrs: Record<string, string> = {}): VNode {
  return h('time', { datetime: iso, ...attrs }, iso);
}
