import { sanitize } from '../render/sanitize.js';

/**
 * The longest a single string from the wire is shown: a method name of 10 KB is cut here, before
 * any layout measures it.
 */
export const longestShown = 200;

/** A string from the wire as the console shows it: controls and bidi overrides escaped, cut short. */
export function wireText(value: unknown, max = longestShown): string {
  const text = sanitize(typeof value === 'string' ? value : String(value ?? ''));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Fits a text to a column: cut with "…", or padded with spaces. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return text.padEnd(width);
}

/** The clock part of an ISO time, to the millisecond. */
export function clock(t: unknown): string {
  return typeof t === 'string' && t.length >= 23 ? t.slice(11, 23) : '??:??:??.???';
}

/** A size for people: bytes below 10 KiB, then KiB and MiB. */
export function bytesText(bytes: number): string {
  if (bytes < 10 * 1024) return `${bytes} B`;
  if (bytes < 10 * 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
