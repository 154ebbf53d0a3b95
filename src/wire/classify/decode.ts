import { isAscii, isUtf8 } from 'node:buffer';
import { parseCut } from '../../protocol/depth.js';

/** A frame's bytes as text (when UTF-8) and as JSON (when it parses). */
export type Decoded =
  /** `cut`: the value nested deeper than `maxDepth`, and is read cut there (see protocol/depth). */
  | { ok: true; text: string; value: unknown; cut?: true }
  | { ok: false; reason: 'not-json'; text: string }
  | { ok: false; reason: 'not-utf8'; base64: string }
  | { ok: false; reason: 'frame-too-large'; text?: string; base64?: string };

/**
 * Whether text may be JSON, from its first character past JSON's white space: `{`, `[`, `"`, a
 * digit, `-`, or the `t`, `f`, `n` of true, false, null. False means it is surely not JSON.
 */
export function mayBeJson(text: string): boolean {
  let at = 0;
  let code = text.charCodeAt(at);
  while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(++at);
  return code === 0x7b || code === 0x5b || code === 0x22 || code === 0x2d || (code >= 0x30 && code <= 0x39) || code === 0x74 || code === 0x66 || code === 0x6e;
}

/** Decodes one frame. Never throws: bad bytes are data to record, not errors. */
export function decodeFrame(bytes: Buffer, truncated = false): Decoded {
  // Most frames are ASCII, which is UTF-8 too: read as such, the same text is decoded at less cost.
  const ascii = isAscii(bytes);
  const utf8 = ascii || isUtf8(bytes);
  if (truncated) {
    // A cut may split a multi-byte character; keep the text when only the tail is damaged.
    const text = bytes.toString('utf8');
    return utf8 || isUtf8(bytes.subarray(0, Math.max(0, bytes.length - 3)))
      ? { ok: false, reason: 'frame-too-large', text }
      : { ok: false, reason: 'frame-too-large', base64: bytes.toString('base64') };
  }
  if (!utf8) return { ok: false, reason: 'not-utf8', base64: bytes.toString('base64') };
  const text = ascii ? bytes.toString('latin1') : bytes.toString('utf8');
  // Text that cannot begin JSON (stdout noise, a banner) is told apart without a parse that throws:
  // an exception costs more than the rest of a small frame's analysis.
  if (!mayBeJson(text)) return { ok: false, reason: 'not-json', text };
  try {
    const { value, cut } = parseCut(text);
    return cut ? { ok: true, text, value, cut } : { ok: true, text, value };
  } catch {
    return { ok: false, reason: 'not-json', text };
  }
}
