// A server that changed: the replay names the request, the tool and the JSON path; ignores, formats,
// --update, and the one-line failures for bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../helpers/http-spy.js';
import { bin, fixture, node, readEntries, recordSession, runBin, runClient, tempDir } from '../helpers/spy.js';
import { splicedText } from '../../src/record/frame-message.js';

const temp = tempDir();
const record = join(temp.dir, 'wire.jsonl');
const server = [node, fixture('servers', 'greet-server.js')];
const changedServer = [...server, '--changed'];

beforeAll(async () => {
  await recordSession('everything-client.js', record, server, { SCENARIO: 'fixture' });
});
afterAll(() => temp.remove());

describe('replay of a server that changed', () => {
  it('exits 0 against the same server', async () => {
    const result = await runBin(['replay', record, '--', ...server]);
    expect(result.text).toContain('replay passed: 4 same, 0 changed, 0 missing, 0 extra');
    expect(result.code).toBe(0);
  });

  it('exits 1 and names the request, the tool and the path that changed', async () => {
    const result = await runBin(['replay', record, '--', ...changedServer]);
    expect(result.code).toBe(1);
    expect(result.text).toMatch(/changed #7 tools\/call greet \(id 2\) \d+ms\n {6}result\.content\[0\]\.text: "Hello, Ada!" -> "Hi there, Ada\."\n/);
    expect(result.text).toMatch(/same {4}#9 tools\/call add/);
    expect(result.text).toContain('replay FAILED: 3 same, 1 changed, 0 missing, 0 extra');
  });

  it('gives the same in JSON and JUnit', async () => {
    const json = await runBin(['replay', record, '--format', 'json', '--', ...changedServer]);
    const report = JSON.parse(json.text);
    const changed = report.sessions[0].items.find((item: { status: string }) => item.status === 'changed');
    expect(changed).toMatchObject({
      kind: 'response',
      method: 'tools/call',
      name: 'greet',
      id: 2,
      seq: 7,
      diff: [{ path: 'result.content[0].text', change: 'changed', recorded: 'Hello, Ada!', actual: 'Hi there, Ada.' }],
    });
    const junit = await runBin(['replay', record, '--format', 'junit', '--', ...changedServer]);
    expect(junit.code).toBe(1);
    expect(junit.text).toContain('<testsuites name="mcp-spy replay" tests="4" failures="1"');
    expect(junit.text).toMatch(
      /<testcase classname="mcp-spy\.replay\.[^"]+" name="#7 tools\/call greet"><failure type="changed" message="changed">result\.content\[0\]\.text: &quot;Hello, Ada!&quot; -&gt; &quot;Hi there, Ada\.&quot;<\/failure>/,
    );
  });

  it('passes when the changed path is ignored, by --ignore or by the ignore file beside the recording', async () => {
    const flag = await runBin(['replay', record, '--ignore', 'result.content[*].text', '--', ...changedServer]);
    expect(flag.code).toBe(0);
    const own = join(temp.dir, 'own.jsonl');
    copyFileSync(record, own);
    writeFileSync(`${own}.ignore`, '# tool texts vary\n$.result.content[*].text\n');
    const file = await runBin(['replay', own, '--', ...changedServer]);
    expect(file.code).toBe(0);
    const noFile = await runBin(['replay', own, '--no-ignore-file', '--', ...changedServer]);
    expect(noFile.code).toBe(1);
  });

  it('--update rewrites only the frame that changed and keeps a valid record', async () => {
    const updated = join(temp.dir, 'updated.jsonl');
    copyFileSync(record, updated);
    const before = readFileSync(updated, 'utf8').split('\n');
    const result = await runBin(['replay', updated, '--update', '--', ...changedServer]);
    expect(result.code).toBe(0);
    expect(result.text).toContain('updated 1 frame(s)');
    const after = readFileSync(updated, 'utf8').split('\n');
    expect(after.length).toBe(before.length);
    const differing = after.map((line, index) => (line === before[index] ? -1 : index)).filter((index) => index !== -1);
    expect(differing).toHaveLength(1);
    const entries = readEntries(updated);
    const oldEntries = readEntries(record);
    expect(entries.map((entry) => [entry.v, entry.seq, entry.session, entry.kind])).toEqual(
      oldEntries.map((entry) => [entry.v, entry.seq, entry.session, entry.kind]),
    );
    const entry = entries[differing[0]!]!;
    expect(entry).toMatchObject({ dir: 's2c', kind: 'response', tool: 'greet', id: 2 });
    expect(entry.msg).toEqual({ result: { content: [{ type: 'text', text: 'Hi there, Ada.' }] }, jsonrpc: '2.0', id: 2 });
    expect(entry.bytes).toBe(Buffer.byteLength(splicedText(after[differing[0]!]!)!));
    // The rewritten recording now passes against the new server, and fails against the old one.
    expect((await runBin(['replay', updated, '--', ...changedServer])).code).toBe(0);
    expect((await runBin(['replay', updated, '--', ...server])).code).toBe(1);
  });

  it('--update rewrites a frame the spy captured (--capture always) into the frame analysed', async () => {
    const captured = join(temp.dir, 'captured.jsonl');
    await runClient('everything-client.js', ['--', node, bin, '--record', captured, '--no-log', '-q', '--capture', 'always', '--', ...server], {
      SCENARIO: 'fixture',
    });
    const before = readFileSync(captured, 'utf8').split('\n');
    expect(before.filter((line) => line.includes('"kind":"captured"')).length).toBeGreaterThan(4);
    const result = await runBin(['replay', captured, '--update', '--', ...changedServer]);
    expect(result.code).toBe(0);
    expect(result.text).toContain('updated 1 frame(s)');
    const after = readFileSync(captured, 'utf8').split('\n');
    const differing = after.map((line, index) => (line === before[index] ? -1 : index)).filter((index) => index !== -1);
    expect(differing).toHaveLength(1);
    expect(JSON.parse(after[differing[0]!]!)).toMatchObject({
      kind: 'response',
      dir: 's2c',
      id: 2,
      msg: { result: { content: [{ text: 'Hi there, Ada.' }] } },
    });
    expect(after[differing[0]!]).not.toContain('"frames"');
    // Read as a whole, the record is the one recorded, but for the answer the server now gives.
    expect(readEntries(captured).map((entry) => [entry.seq, entry.kind, entry.method])).toEqual(
      readEntries(record).map((entry) => [entry.seq, entry.kind, entry.method]),
    );
    expect((await runBin(['replay', captured, '--', ...changedServer])).code).toBe(0);
  });

  it('reports a request the server no longer answers as missing after --timeout', async () => {
    const hanging = [node, '-e', 'process.stdin.resume()'];
    const result = await runBin(['replay', record, '--timeout', '300ms', '--', ...hanging]);
    expect(result.code).toBe(1);
    expect(result.text).toMatch(/missing #2 initialize \(id 0\): no response within 300ms\n/);
    expect(result.text).toMatch(/missing #9 tools\/call add \(id 3\): no response within 300ms\n/);
  });

  it('reports what a server that crashed mid-session left unanswered', async () => {
    const result = await runBin(['replay', record, '--', ...server, '--crash']);
    expect(result.text).toMatch(/same {4}#7 tools\/call greet/);
    expect(result.text).toMatch(/missing #9 tools\/call add \(id 3\): the server exited with code 3\n/);
    expect(result.code).toBe(1);
  });
});

// Bad input refused before a server starts is tested in-process: test/cli/bad-use-replay.test.ts.
describe('replay: a server that fails, one line each', () => {
  const cases: [string, () => string[], RegExp, number][] = [
    [
      'a server command not found',
      () => ['replay', record, '--', 'mcp-spy-no-such-server'],
      /^mcp-spy: cannot start the server mcp-spy-no-such-server: command not found\n$/,
      127,
    ],
    [
      'a server that dies at once',
      () => ['replay', record, '--', node, join(temp.dir, 'missing-server.js')],
      /^mcp-spy: the server exited with code 1 before answering anything; its stderr: Error: Cannot find module .*\n$/,
      1,
    ],
  ];
  it.each(cases)('%s', async (_name, args, line, exitCode) => {
    const result = await runBin(args());
    expect(result.stderr).toMatch(line);
    expect(result.text).toBe('');
    expect(result.code).toBe(exitCode);
  });

  it('a target nobody listens on', async () => {
    const result = await runBin(['replay', record, '--target', `http://127.0.0.1:${await freePort()}/mcp`]);
    expect(result.stderr).toMatch(/^mcp-spy: the server is not reachable: cannot connect: ECONNREFUSED\n$/);
    expect(result.code).toBe(1);
  });
});
