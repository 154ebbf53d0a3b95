// Cross-app access (XAA, SEP-990) through the HTTP spy: the SDK v2 client's CrossAppAccessProvider
// against a server that is its own authorization server (fixtures/servers/xaa-server.js, the
// conformance suite's wire shape). Direct it works; through the spy the identity provider signs
// the ID-JAG for the spy's URL, the server refuses it, and the spy says why, once.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { eventually, spyInFront } from '../helpers/http-spy.js';
import { fixture, node } from '../helpers/spy.js';

/** Runs the XAA client against a URL: what it printed, and its exit code. */
function xaaClient(url: string): Promise<{ code: number; out: { tools?: string[]; error?: string } }> {
  return new Promise((resolve) => {
    execFile(node, [fixture('clients', 'xaa-client.js'), url], (error, stdout) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: JSON.parse(stdout) }),
    );
  });
}

describe('cross-app access through the HTTP spy', () => {
  const running = spyInFront('/mcp', (port) => [node, fixture('servers', 'xaa-server.js'), '--port', String(port)]);

  it('works direct; through the spy the server refuses the ID-JAG, and the spy says why on stderr, once', async () => {
    expect(await xaaClient(running.direct)).toEqual({ code: 0, out: { tools: ['whoami'] } });

    const spied = await xaaClient(running.spy.url);
    expect(spied).toEqual({ code: 1, out: { error: 'ID-JAG resource does not match MCP server resource' } });
    const spyOrigin = new URL(running.spy.url).origin;
    // The client tries twice: the record shows both refusals, stderr says it once.
    const tokens = await eventually(() => {
      const found = running.spy.entries().filter((entry) => entry.kind === 'http' && entry.path === '/token');
      return found.length === 2 ? found : undefined;
    });
    const said = await eventually(() => (running.spy.stderr().includes('cross-app access') ? running.spy.stderr() : undefined));
    expect(said.split('\n').filter((line) => line.includes('cross-app access'))).toEqual([
      `mcp-spy: cross-app access (XAA) refused by the authorization server (invalid_grant: ID-JAG resource does not match MCP server resource): the identity provider signed the ID-JAG for resource ${spyOrigin}/mcp, audience ${spyOrigin}, the spy's URL the client connected to, not the server's own; the spy cannot rewrite a signed assertion, so connect the client to the server directly for cross-app access`,
    ]);

    // The record says which step it was and for what; the assertion, a bearer credential, is masked.
    const token = tokens[0]!;
    expect(token.summary).toContain(`cross-app access: ID-JAG presented for resource ${spyOrigin}/mcp, audience ${spyOrigin}`);
    expect(token.requestBody).toContain('assertion=[redacted]');
  });
});
