/**
 * A cut frame's record line written from its bytes: the frame's kept part is as long as the parse
 * limit (16 MiB by default), and its `raw` escaped into a string, then copied into a line to write,
 * made two more copies of it for every such frame. Here the bytes go into the line as they are,
 * piece by piece, where JSON needs no escape in them (most of a large frame), and escaped where it does.
 */

/** Pieces are at most this long: a piece that needs escaping is copied, but no more than this at once. */
const pieceBytes = 64 * 1024;

const quote = 0x22;
const backslash = 0x5c;
/** The short escapes JSON.stringify writes; other control characters become \u00XX. */
const shortEscapes = new Map([
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0c, 'f'],
  [0x0d, 'r'],
]);

const needsEscape = (byte: number) => byte < 0x20 || byte === quote || byte === backslash;

/** The escape of one byte that needs one, as JSON.stringify writes it. */
function escapeOf(byte: number): string {
  if (byte === quote || byte === backslash) return `\\${String.fromCharCode(byte)}`;
  const short = shortEscapes.get(byte);
  return short === undefined ? `\\u${byte.toString(16).padStart(4, '0')}` : `\\${short}`;
}

/** One piece escaped: the piece itself when nothing in it needs escaping, else a copy with the escapes. */
function escapePiece(piece: Buffer): Buffer {
  let first = -1;
  for (let at = 0; at < piece.length; at++)
    if (needsEscape(piece[at]!)) {
      first = at;
      break;
    }
  if (first === -1) return piece;
  const parts: Buffer[] = [piece.subarray(0, first)];
  let from = first;
  for (let at = first; at < piece.length; at++) {
    if (!needsEscape(piece[at]!)) continue;
    if (at > from) parts.push(piece.subarray(from, at));
    parts.push(Buffer.from(escapeOf(piece[at]!), 'latin1'));
    from = at + 1;
  }
  if (from < piece.length) parts.push(piece.subarray(from));
  return Buffer.concat(parts);
}

/**
 * The bytes of valid UTF-8 text as JSON writes them inside a string: the same bytes, but for
 * quotes, backslashes and control characters (bytes of a multi-byte character never need escaping,
 * so cutting the text into pieces anywhere is safe). Pieces that need no escape are the text's own.
 */
export function escapedPieces(utf8: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  /** Where the run of pieces that needed no escape began (they are one piece of the text's own). */
  let run = -1;
  for (let at = 0; at < utf8.length; at += pieceBytes) {
    const piece = utf8.subarray(at, at + pieceBytes);
    const escaped = escapePiece(piece);
    if (escaped !== piece) {
      if (run !== -1) pieces.push(utf8.subarray(run, at));
      run = -1;
      pieces.push(escaped);
    } else if (run === -1) run = at;
  }
  if (run !== -1) pieces.push(utf8.subarray(run));
  return pieces;
}

/**
 * The record line of an entry whose `raw`, its last field, is the text of `utf8` (valid UTF-8):
 * byte for byte what JSON.stringify(entry) and a newline make, without `raw` copied into it.
 */
export function rawSplicedLine(entry: object, utf8: Buffer): (string | Buffer)[] {
  const { raw: _raw, ...fields } = entry as { raw?: string };
  const head = JSON.stringify(fields);
  return [head === '{}' ? '{"raw":"' : `${head.slice(0, -1)},"raw":"`, ...escapedPieces(utf8), '"}\n'];
}
