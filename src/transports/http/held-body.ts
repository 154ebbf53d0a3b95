import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { rewriteMetadata, rewriteResourceParams, type AuthRewrite, type Origins } from './auth-rewrite.js';
import { headerText } from './headers.js';

/** Discovery documents are a few KiB; one larger than this passes as it came. */
const metadataLimit = 1024 * 1024;
/** Token requests are a few hundred bytes; a larger form passes as it came. */
const formLimit = 64 * 1024;

/** The raw header list with Content-Length set to `length` (a body the spy rewrote). */
export function withContentLength(raw: readonly string[], length: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'content-length') out.push(raw[i]!, raw[i + 1]!);
  out.push('Content-Length', String(length));
  return out;
}

/** Whether a request is a form the spy reads whole before forwarding, for its `resource` parameter. */
export function isHeldForm(method: string, headers: IncomingHttpHeaders): boolean {
  const length = Number(headers['content-length'] ?? NaN);
  return (
    method === 'POST' && headerText(headers, 'content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded') === true && length <= formLimit
  );
}

/** A held form's body as the server must get it: a `resource` naming the spy names the server. */
export function rewriteForm(body: Buffer, origins: Origins, note: (rewrite: AuthRewrite) => void): Buffer {
  const text = body.toString('latin1');
  const moved = rewriteResourceParams(text, origins, 'form', note);
  return moved === text ? body : Buffer.from(moved, 'latin1');
}

/**
 * A discovery document on its way to the client: held to its end, its target URLs moved to the
 * spy, then sent with its new length. Anything else (or a document too large) is undefined: it streams.
 */
export function createMetadataHolder(
  discovery: boolean,
  response: IncomingMessage,
  headers: string[],
  origins: Origins,
  note: (rewrite: AuthRewrite) => void,
  writeHead: (headers: string[]) => void,
) {
  const status = response.statusCode ?? 0;
  const encoded = (headerText(response.headers, 'content-encoding') ?? 'identity') !== 'identity';
  if (status < 200 || status >= 300 || encoded || !discovery || !headerText(response.headers, 'content-type')?.includes('json')) return undefined;
  let held: Buffer[] | undefined = [];
  let length = 0;
  return {
    push(chunk: Buffer): Buffer {
      if (held === undefined) return chunk;
      held.push(chunk);
      length += chunk.length;
      if (length <= metadataLimit) return Buffer.alloc(0);
      writeHead(headers);
      const out = Buffer.concat(held);
      held = undefined;
      return out;
    },
    /** The response ended: the document as the client gets it. */
    flush(): Buffer | undefined {
      if (held === undefined) return undefined;
      const body = Buffer.concat(held);
      held = undefined;
      const moved = rewriteMetadata(body, origins, note);
      writeHead(moved ? withContentLength(headers, moved.length) : headers);
      return moved ?? body;
    },
  };
}
