import { visibleText } from '../../render/sanitize.js';
import { h } from './dom.js';

/** Past this many characters a payload is shown cut, with a control to show the rest. */
export const shownChars = 20_000;

/** A block of text (pretty JSON or exact bytes) cut at `shownChars`, with a button that shows it all. */
export function payloadBlock(text: string, className: string): HTMLElement {
  const pre = h('pre', { class: className });
  if (text.length <= shownChars) {
    pre.textContent = visibleText(text);
    return pre;
  }
  pre.textContent = visibleText(text.slice(0, shownChars));
  const more = h('button', { type: 'button', class: 'expand' }, `show all ${text.length.toLocaleString('en')} characters`);
  more.addEventListener('click', () => {
    pre.textContent = visibleText(text);
    more.remove();
  });
  return h('div', { class: 'payload' }, pre, h('p', { class: 'cut' }, `cut at ${shownChars.toLocaleString('en')} characters `, more));
}

/** A frame's text pretty-printed when it is JSON, else as it is. */
export function prettyText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
