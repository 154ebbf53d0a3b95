// The page builds everything with DOM calls: text from the recording only ever goes in through
// textContent or attribute values, never through markup, so a payload holding <script> stays text;
// its controls and bidirectional overrides are shown as escapes, as a terminal view shows them.
import { visibleText } from '../../render/sanitize.js';

type Child = Node | string | number | undefined | null | false;
type Attributes = Record<string, string | number | boolean | undefined>;

function fill(element: Element, attributes: Attributes, children: Child[]): void {
  for (const name in attributes) {
    const value = attributes[name];
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'object' ? child : visibleText(String(child)));
  }
}

/** An HTML element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  fill(element, attributes, children);
  return element;
}

const svgNamespace = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(svgNamespace, tag);
  fill(element, attributes, children);
  return element;
}

/** A section of the report with its heading. */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { id }, h('h2', {}, title), ...children);
}

/** Text cut to `max` characters, with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Items per block of a long list or diagram: the browser lays out and paints only the blocks near the view. */
export const blockSize = 400;

/**
 * A long run of items as blocks of `blockSize`, each skipped by layout and paint while off screen
 * (`content-visibility: auto`), sized in advance at `height(count)` px so the scroll bar is right.
 */
export function blocks<T>(items: readonly T[], height: (count: number) => number, build: (slice: readonly T[], first: number) => Element): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (let first = 0; first < items.length; first += blockSize) {
    const slice = items.slice(first, first + blockSize);
    const block = h('div', { class: 'block' }, build(slice, first));
    block.style.containIntrinsicSize = `auto ${height(slice.length)}px`;
    out.push(block);
  }
  return out;
}
