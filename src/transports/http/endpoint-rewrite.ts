import type { EndpointRewrite } from '../../wire/http/exchange-tap.js';

const limit = 64 * 1024;
const blankLine = /\r\n\r\n|\n\n|\r\r/;

export type { EndpointRewrite };

function rewriteBlock(block: string, fromOrigin: string, toOrigin: string): { text: string; rewrite?: EndpointRewrite } | undefined {
  const lines = block.split(/\r\n|\r|\n/);
  const fields = lines.filter((line) => line !== '' && !line.startsWith(':'));
  if (fields.length === 0) return undefined;
  if (!fields.some((line) => /^event: ?endpoint$/.test(line))) return { text: block };
  let rewrite: EndpointRewrite | undefined;
  const text = block.replace(/^(data: ?)(.*)$/m, (whole, prefix: string, value: string) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return whole; // a relative endpoint already resolves against the spy's own URL
    }
    if (url.origin !== fromOrigin) return whole;
    const to = `${toOrigin}${value.slice(url.origin.length)}`;
    rewrite = { from: value, to };
    return `${prefix}${to}`;
  });
  return rewrite ? { text, rewrite } : { text };
}

/**
 * The legacy HTTP+SSE transport names the URL to post to in its first event, `endpoint`; when it
 * names the target's origin, the client must be given the spy's instead, or it would go around the
 * spy. Holds back only the stream's first event (at most 64 KiB); every later byte passes untouched.
 */
export function createEndpointRewriter(fromOrigin: string, toOrigin: string, onRewrite: (rewrite: EndpointRewrite) => void) {
  let held: Buffer | undefined = Buffer.alloc(0);
  let scanned = 0;

  return {
    push(chunk: Buffer): Buffer {
      if (held === undefined) return chunk;
      held = Buffer.concat([held, chunk]);
      const text = held.toString('latin1');
      for (;;) {
        const match = blankLine.exec(text.slice(scanned));
        if (!match) break;
        const end = scanned + match.index + match[0].length;
        const result = rewriteBlock(text.slice(scanned, end), fromOrigin, toOrigin);
        if (result === undefined) {
          scanned = end;
          continue;
        }
        const head = Buffer.from(text.slice(0, scanned), 'latin1');
        const block = result.rewrite ? Buffer.from(result.text, 'latin1') : held.subarray(scanned, end);
        const out = Buffer.concat([head, block, held.subarray(end)]);
        held = undefined;
        if (result.rewrite) onRewrite(result.rewrite);
        return out;
      }
      if (held.length <= limit) return Buffer.alloc(0);
      const out = held;
      held = undefined;
      return out;
    },
    /** The stream ended: what is still held goes out as it came. */
    flush(): Buffer {
      const out = held ?? Buffer.alloc(0);
      held = undefined;
      return out;
    },
  };
}
