import { describe, expect, it } from 'vitest';
import { createEndpointRewriter, type EndpointRewrite } from '../../src/transports/http/endpoint-rewrite.js';

const server = 'http://127.0.0.1:3001';
const spy = 'http://127.0.0.1:7000';

function pass(chunks: string[]) {
  const rewrites: EndpointRewrite[] = [];
  const rewriter = createEndpointRewriter(server, spy, (rewrite) => rewrites.push(rewrite));
  const out = [...chunks.map((chunk) => rewriter.push(Buffer.from(chunk))), rewriter.flush()].map((buffer) => buffer.toString()).join('');
  return { out, rewrites };
}

describe('createEndpointRewriter', () => {
  it('gives the client the spy origin for an absolute endpoint on the server origin, split anywhere', () => {
    const { out, rewrites } = pass(['event: endp', `oint\ndata: ${server}/messages?sessionId=1\n`, '\ndata: {"later":true}\n\n']);
    expect(out).toBe(`event: endpoint\ndata: ${spy}/messages?sessionId=1\n\ndata: {"later":true}\n\n`);
    expect(rewrites).toEqual([{ from: `${server}/messages?sessionId=1`, to: `${spy}/messages?sessionId=1` }]);
  });

  it.each([
    ['a relative endpoint', 'event: endpoint\ndata: /message?sessionId=2\n\n'],
    ['an endpoint on another origin', 'event: endpoint\r\ndata: https://elsewhere.example/m\r\n\r\n'],
    ['a stream that starts with a message', `data: {"jsonrpc":"2.0"}\n\nevent: endpoint\ndata: ${server}/m\n\n`],
    ['a comment before the first event', `: hello\n\nid: 1\ndata: {}\n\n`],
  ])('leaves %s as it is', (_name, text) => {
    expect(pass([text])).toEqual({ out: text, rewrites: [] });
  });

  it('holds back nothing after the first event, and everything it held at the end', () => {
    const rewriter = createEndpointRewriter(server, spy, () => {});
    expect(rewriter.push(Buffer.from('data: partial')).length).toBe(0);
    expect(rewriter.flush().toString()).toBe('data: partial');
    expect(rewriter.push(Buffer.from('x')).toString()).toBe('x');
  });
});
