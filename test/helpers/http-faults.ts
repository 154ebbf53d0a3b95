// Fault injection on HTTP, for its tests: one call through `mcp-spy http --fault` in front of a plain
// spy (whose record is what really reached the server), and the frames of the faulted exchange.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { recordEntry } from '../../src/record/entry-schema.js';
import { eventually, startSpy, type Spy } from './http-spy.js';
import { runBin } from './spy.js';

export type Entries = ReturnType<Spy['entries']>;

/**
 * One call (echo by default) through a faulting spy in front of `server` (a plain spy in front of the
 * server): what the client got, what it reported on the way (`errors`, `progress`), the faulting spy's
 * record, what reached the server; `check` must find the record clean.
 */
export async function faultedCall(
  server: Spy,
  rule: string,
  until: (entries: Entries) => boolean = () => true,
  options: { call?: { name: string; arguments: Record<string, unknown> }; timeoutMs?: number; replay?: boolean } = {},
) {
  const { call, timeoutMs = 1500 } = options;
  const outer = await startSpy(['--target', server.url, '--fault', rule]);
  // Stopped even when the test fails on the way: a spy left running would outlive the suite.
  try {
    const client = new Client({ name: `fault-client-${Math.random()}`, version: '1.0.0' });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    const transport = new StreamableHTTPClientTransport(new URL(outer.url));
    await client.connect(transport);
    const marker = `hello ${Math.random()}`;
    const progress: number[] = [];
    const outcome = await client
      .callTool(call ?? { name: 'echo', arguments: { message: marker } }, undefined, {
        timeout: timeoutMs,
        onprogress: ({ progress: step }) => progress.push(step),
      })
      .then(
        (result) => ({ result }),
        (error: Error & { code?: number }) => ({ thrown: error.message, code: error.code }),
      );
    // What the client saw of the call's own stream, before it gave up or resumed elsewhere.
    const seen = { errors: [...errors], progress: [...progress] };
    await client.close().catch(() => {});
    const faults = await eventually(() => {
      const found = outer.entries().filter((entry) => entry.kind === 'fault');
      return found.length > 0 && until(outer.entries()) ? found : undefined;
    });
    const entries = outer.entries();
    for (const entry of entries) recordEntry.parse(entry);
    const check = await runBin(['check', join(outer.dir, 'wire.jsonl')]);
    const view = await runBin(['view', join(outer.dir, 'wire.jsonl')]);
    const replay = options.replay ? await runBin(['replay', join(outer.dir, 'wire.jsonl'), '--target', server.url]) : undefined;
    // check does not blame the server for what the spy did on purpose.
    expect(check.stdout.toString() + check.stderr).toContain('clean');
    const reached = server
      .entries()
      .some((entry) => entry.method === 'tools/call' && JSON.stringify(entry.msg ?? entry.raw).includes(call ? call.name : marker));
    const calls = entries.filter(
      (entry) => entry.kind !== 'fault' && (entry.method === 'tools/call' || JSON.stringify(entry.msg ?? '').includes(marker) || entry.origin === 'spy'),
    );
    return { outcome, faults, reached, check, marker, entries, calls, view: view.stdout.toString(), replay, ...seen };
  } finally {
    await outer.dispose();
  }
}

/** The request of the faulted call, and the frames its exchange carried back. */
export function answerFrames(entries: Entries) {
  const request = entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call')!;
  return { request, frames: entries.filter((entry) => entry.dir === 's2c' && entry.exchange === request.exchange) };
}
