import { sanitize } from './sanitize.js';

const entities: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text for an XML attribute or element (JUnit reports). XML 1.0 cannot hold most controls, even
 * escaped, nor U+FFFE and U+FFFF: like any control on a terminal, they become visible escapes.
 */
export function xmlText(text: string): string {
  return sanitize(text)
    .replace(/[\ufffe\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`)
    .replace(/[&<>"']/g, (char) => entities[char]!);
}
