/**
 * The page's views are pure functions from data to a small tree of `VNode`s; `dom.ts` turns a tree
 * into elements. Views hold no DOM, so they run (and are unit-tested) in Node as well as in the page.
 */

/** What a listener gets: the DOM event in the page; tests call handlers with a stand-in. */
export type Handler = (event: Event) => void;
export type AttrValue = string | number | boolean | null | undefined | Handler;
export type Attrs = Record<string, AttrValue>;
export type Child = VNode | string | number | null | undefined | false;

export interface VNode {
  tag: string;
  attrs: Attrs;
  children: Child[];
}

/** An element: `h('li', { class: 'entry' }, 'text', h('b', {}, 'bold'))`; arrays of children are flattened. */
export function h(tag: string, attrs: Attrs = {}, ...children: Array<Child | Child[]>): VNode {
  return { tag, attrs, children: children.flat() };
}

export function isVNode(child: Child): child is VNode {
  return typeof child === 'object' && child !== null;
}

/** The text a tree shows, its parts joined by single spaces: what a reader (or a test) sees. */
export function textOf(child: Child): string {
  return rawText(child).replace(/\s+/g, ' ').trim();
}

function rawText(child: Child): string {
  if (child === null || child === undefined || child === false) return '';
  if (!isVNode(child)) return String(child);
  return child.children.map(rawText).join(' ');
}

/** Every node of the tree (depth first) that `test` accepts. */
export function findAll(child: Child, test: (node: VNode) => boolean): VNode[] {
  if (!isVNode(child)) return [];
  const found = test(child) ? [child] : [];
  for (const inner of child.children) found.push(...findAll(inner, test));
  return found;
}
