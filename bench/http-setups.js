// What the HTTP benchmark measures: the servers it runs (its own minimal one, answering with JSON or
// with an event stream, or the SDK's Streamable HTTP server), and the ways a client reaches them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestBody } from './http-drive.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const bin = join(root, 'bin', 'mcp-spy.js');
const passProxy = join(root, 'bench', 'http-pass.js');
const benchServer = join(root, 'bench', 'http-server.js');

/**
 * Server modes by name: the command that starts the server, whether clients open a session first,
 * and the body of the nth call (MCP-sized: a 300 B tools/call, a 2 KiB answer).
 */
export const serverModes = {
  json: { title: 'bench server, JSON answers', command: [node, benchServer], session: false, body: (id) => requestBody(id, 300) },
  sse: { title: 'bench server, event-stream answers', command: [node, benchServer, '--sse'], session: false, body: (id) => requestBody(id, 300) },
  sdk: {
    title: 'SDK 1.x Streamable HTTP server (stateful, event-stream answers), echo tool',
    command: [node, join(root, 'fixtures', 'http', 'tool-server.js')],
    session: true,
    body: (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"message":"${'x'.repeat(220)}"}}}`,
  },
};

/** The setups in table order: `command` starts the proxy in front of `target` (none for direct); `record` is its record. */
export function httpSetups(dir, target, { floors = false } = {}) {
  const spy = [node, bin, 'http', '--quiet', '--target', target];
  return [
    { name: 'direct' },
    { name: 'node proxy', command: [node, passProxy, target] },
    { name: 'spy record', command: [...spy, '--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log')], record: join(dir, 'wire.jsonl') },
    { name: 'spy no-rec', command: [...spy, '--no-record', '--no-log'] },
    // The floor of a Node HTTP recorder (bench/http-pass.js with a record file).
    ...(floors ? [{ name: 'node proxy rec', command: [node, passProxy, target, join(dir, 'floor.jsonl')] }] : []),
  ];
}

/** What a proxy prints once it listens: its port (the bench proxy) or its URL (mcp-spy). */
export const listening = /listening on (?:http:\/\/[^\s/]+:)?(\d+)/;
