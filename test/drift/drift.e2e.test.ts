import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, fixture, node, readEntries, recordSession, runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-drift-');
afterAll(() => temp.remove());
const notesServer = (...flags: string[]) => [node, fixture('servers', 'notes-server.js'), ...flags];
const path = (name: string) => join(temp.dir, name);

/** Runs the notes client through a spy with these options; resolves with the spy's stderr (its live view). */
function spied(spyArgs: string[], server: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [fixture('clients', 'notes-client.js'), '--', node, bin, ...spyArgs, '--', ...server], {
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stderr) : reject(new Error(`notes client failed (${code}): ${stderr}`))));
  });
}

const notesOf = (record: string) =>
  readEntries(record).flatMap((entry) => (Array.isArray(entry.notes) ? entry.notes.map((note) => `${entry.method} ${String(note)}`) : []));

describe('diff between two recordings of one server', () => {
  beforeAll(async () => {
    await recordSession('notes-client.js', path('a.jsonl'), notesServer());
    await recordSession('notes-client.js', path('b.jsonl'), notesServer());
    await recordSession('notes-client.js', path('c.jsonl'), notesServer('--changed'));
  });

  it('identical sessions: no changes, exit 0', () => {
    const result = runBinSync(['diff', path('a.jsonl'), path('b.jsonl')]);
    expect(result.text).toContain('no changes (0 breaking, 0 risky, 0 compatible; 1 answer compared)');
    expect(result.code).toBe(0);
  });

  it('a description changed and a required argument added: each named with its class, exit 1', () => {
    const result = runBinSync(['diff', path('a.jsonl'), path('c.jsonl')]);
    expect(result.code).toBe(1);
    const lines = result.text.split('\n');
    expect(lines).toContain('breaking   tool search: required argument `limit` added');
    expect(lines).toContain("risky      tool search: description changed: the model's instructions changed");
    expect(lines).toContain('breaking   tool publish: now destructive (destructiveHint)');
    expect(lines).toContain('compatible server notes: server info changed: notes 1.0.0 -> notes 1.1.0');
  });

  it('--fail-on: a change below the class passes; the machine formats say the same', () => {
    expect(runBinSync(['diff', path('a.jsonl'), path('b.jsonl'), '--fail-on', 'breaking']).code).toBe(0);
    expect(runBinSync(['diff', path('c.jsonl'), path('c.jsonl'), '--fail-on', 'any']).code).toBe(0);
    const json = JSON.parse(runBinSync(['diff', path('a.jsonl'), path('c.jsonl'), '--format', 'json', '--fail-on', 'breaking']).text);
    expect(json.changes.map((change: { class: string; subject: string }) => `${change.class} ${change.subject}`)).toEqual([
      'breaking search',
      'breaking publish',
      'risky search',
      'compatible notes',
    ]);
    const junit = runBinSync(['diff', path('a.jsonl'), path('c.jsonl'), '--format', 'junit', '--fail-on', 'breaking']);
    expect(junit.code).toBe(1);
    expect(junit.text).toMatch(
      /<testcase name="breaking-change: [^"]*" classname="mcp-spy.diff.breaking-change" time="0">\n\s+<failure message="2 finding\(s\)/,
    );
    const sarif = JSON.parse(runBinSync(['diff', path('a.jsonl'), path('c.jsonl'), '--format', 'sarif']).text);
    expect(sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toEqual([
      'breaking-change',
      'breaking-change',
      'risky-change',
      'compatible-change',
    ]);
    const markdown = runBinSync(['diff', path('a.jsonl'), path('c.jsonl'), '--format', 'markdown']).text;
    expect(markdown).toContain('| **breaking** | tool | `search` | required argument `limit` added |');
  });

  it('against the live server: the recording is replayed through a spy and compared', () => {
    const result = runBinSync(['diff', path('a.jsonl'), '--fail-on', 'breaking', '--', ...notesServer('--changed')]);
    expect(result.text).toContain('breaking   tool search: required argument `limit` added');
    expect(result.code).toBe(1);
    expect(runBinSync(['diff', path('a.jsonl'), '--', ...notesServer()]).code).toBe(0);
  });

  it('against a server command that cannot start: the line and status replay gives (127), not a diff', () => {
    const result = runBinSync(['diff', path('a.jsonl'), '--', join(temp.dir, 'no-such-server')]);
    expect([result.code, result.stderr, result.text]).toEqual([127, `mcp-spy: cannot start ${join(temp.dir, 'no-such-server')}: command not found\n`, '']);
  });
});

describe('baselines and tools that change', () => {
  beforeAll(async () => {
    await recordSession('notes-client.js', path('pinned.jsonl'), notesServer());
    expect(runBinSync(['baseline', path('pinned.jsonl'), '-o', path('lock.json')]).code).toBe(0);
  });

  it('the baseline pins each tool by server, readable and with a hash', () => {
    const lock = JSON.parse(readFileSync(path('lock.json'), 'utf8'));
    expect(Object.keys(lock.servers)).toEqual(['notes']);
    expect(Object.keys(lock.servers.notes.tools)).toEqual(['publish', 'search']);
    expect(lock.servers.notes.tools.search).toMatchObject({
      sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      definition: { name: 'search', description: 'Search the notes' },
    });
    expect(runBinSync(['check', path('pinned.jsonl'), '--baseline', path('lock.json')]).code).toBe(0);
  });

  it('a later session with changed definitions: the live spy notes it, check --baseline fails with the diff', async () => {
    const live = await spied(['--record', path('changed.jsonl'), '--no-log', '--baseline', path('lock.json')], notesServer('--changed'));
    expect(live).toMatch(/<- response {4}tools\/list #1 .*!tool-definition-changed/);
    // Live, the note names the tools: the user need not wait for check to know which.
    expect(live).toContain('tool search differs from its pin in the baseline; tool publish differs from its pin in the baseline');
    expect(notesOf(path('changed.jsonl'))).toContain('tools/list tool-definition-changed');
    const said = readEntries(path('changed.jsonl')).filter((entry) => entry.kind === 'note');
    expect(said[0]).toMatchObject({
      notes: ['tool-definition-changed'],
      related: { method: 'tools/list' },
      text: expect.stringContaining('tool search differs'),
    });
    const result = runBinSync(['check', path('changed.jsonl'), '--baseline', path('lock.json')]);
    expect(result.code).toBe(1);
    expect(result.text).toContain(
      'error tool-definition-changed: tool search differs from its pin: description: "Search the notes" -> "Search the notes, newest first"',
    );
    expect(result.text).toContain('error tool-definition-changed: tool publish differs from its pin: annotations.destructiveHint: false -> true');
    // Once per tool, though the client listed the tools twice.
    expect(result.text.match(/tool search differs/g)).toHaveLength(1);
  });

  it('a server that changes a tool after list_changed: warned live and in the record, flagged by check, no baseline needed', async () => {
    const live = await spied(['--record', path('rug.jsonl'), '--no-log'], notesServer('--rug-pull'));
    expect(live).toMatch(/<- notify +notifications\/tools\/list_changed/);
    expect(live).toMatch(/<- response {4}tools\/list #3 .*!tool-changed-mid-session/);
    const words = 'the server changed its tools mid-session, after notifications/tools/list_changed: changed: search';
    expect(live).toContain(words);
    // The frame carries the note; an event after it says what it means, related to it.
    expect(notesOf(path('rug.jsonl'))).toEqual(['tools/list tool-changed-mid-session', 'undefined tool-changed-mid-session']);
    const entries = readEntries(path('rug.jsonl'));
    const frame = entries.find((entry) => entry.kind === 'response' && Array.isArray(entry.notes));
    expect(entries.find((entry) => entry.kind === 'note')).toMatchObject({ text: words, related: { seq: frame?.seq, method: 'tools/list' } });
    const result = runBinSync(['check', path('rug.jsonl'), '--format', 'json']);
    const found = JSON.parse(result.text).findings.map((finding: { rule: string; message: string }) => `${finding.rule}: ${finding.message}`);
    // Said once: the event repeats the frame's note, it is no second finding.
    expect(found.filter((line: string) => line.startsWith('tool-changed-mid-session'))).toEqual([`tool-changed-mid-session: ${words}`]);
  });
});
