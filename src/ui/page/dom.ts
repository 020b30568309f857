/** Turns `VNode` trees into DOM nodes: the only module of the page's views that touches the DOM. */
import { isVNode, type Child } from './vnode.js';

/** Properties, not attributes: they hold the live state of form controls. */
const PROPERTIES = new Set(['value', 'checked']);

export function toNode(child: Child): Node | undefined {
  if (child === null || child === undefined || child === false) return undefined;
  if (!isVNode(child)) return document.createTextNode(String(child));
  const element = document.createElement(child.tag);
  for (const [name, value] of Object.entries(child.attrs)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (PROPERTIES.has(name)) (element as unknown as Record<string, unknown>)[name] = value;
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const inner of child.children) {
    const node = toNode(inner);
    if (node) element.append(node);
  }
  return element;
}

/** Replaces what `parent` shows with `children`. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.map(toNode).filter((node): node is Node => node !== undefined));
}

/**
 * Like `show`, but only when the data behind it changed: a poll that brings the same data leaves the
 * DOM alone, so focus, open sections and text selections survive it.
 */
export function showIfChanged(parent: HTMLElement, data: unknown, render: () => Child[]): void {
  const key = JSON.stringify(data);
  if (parent.dataset.shown === key) return;
  parent.dataset.shown = key;
  show(parent, ...render());
}

/** An element of the page's fixed layout (src/ui/page/layout.ts), by id. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
