import { appendFileSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { SourceEntry } from '../../src/ui/rows.js';
import { createFileLoader, followSources } from '../../src/ui/sources.js';
import { tempDir } from '../helpers/spy.js';
import { sampleSession } from '../helpers/ui-records.js';
import { fieldOf } from '../../src/record/entry-fields.js';

function follow(paths: string[]) {
  const stop = new AbortController();
  const items: SourceEntry[] = [];
  const problems: string[] = [];
  const caughtUp: string[] = [];
  const done = followSources({
    paths,
    signal: stop.signal,
    onBatch: (batch) => items.push(...batch),
    onProblem: (text) => problems.push(text),
    onCaughtUp: (file) => caughtUp.push(file),
    pollMs: 20,
  });
  onTestFinished(async () => {
    stop.abort();
    await done;
  });
  return { items, problems, caughtUp };
}

describe("the console's sources", () => {
  it('read every record of a directory, then new lines and new files as they are written', async () => {
    const temp = tempDir('mcp-spy-ui-sources-');
    onTestFinished(temp.remove);
    const dir = join(temp.dir, 'sessions');
    mkdirSync(dir);
    const first = join(dir, 'a--one--20261201T170000123Z-1.jsonl');
    const lines = sampleSession('s1');
    writeFileSync(first, `${lines.slice(0, 5).join('\n')}\n`);
    writeFileSync(join(dir, 'notes.txt'), 'not a record\n');
    const { items, problems } = follow([dir]);
    await vi.waitFor(() => expect(items).toHaveLength(5));
    // A line is handed over once its newline is written, never half.
    appendFileSync(first, lines[5]!);
    appendFileSync(first, `\n${lines.slice(6).join('\n')}\n`);
    await vi.waitFor(() => expect(items).toHaveLength(lines.length));
    writeFileSync(join(dir, 'b--two--20261201T170001123Z-2.jsonl'), `${sampleSession('s2').join('\n')}\n`);
    await vi.waitFor(() => expect(items).toHaveLength(2 * lines.length));
    expect(new Set(items.map((item) => item.entry.session))).toEqual(new Set(['s1', 's2']));
    expect(problems).toEqual([]);
  });

  it('let go of a session file once its server exited (one run per file), and keep following a file whose server runs', async () => {
    const temp = tempDir('mcp-spy-ui-sources-');
    onTestFinished(temp.remove);
    const ended = temp.file('c--ended--20261201T170000123Z-1.jsonl', `${sampleSession('e').join('\n')}\n`);
    const running = temp.file('c--running--20261201T170000123Z-2.jsonl', `${sampleSession('r').slice(0, -1).join('\n')}\n`);
    const { caughtUp } = follow([temp.dir]);
    await vi.waitFor(() => expect(caughtUp.sort()).toEqual([ended, running].sort()));
    const open = () =>
      readdirSync('/proc/self/fd').map((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      });
    await vi.waitFor(() => expect(open()).not.toContain(ended));
    expect(open()).toContain(running);
  });

  it('say where each line is, so the loader reads the whole entry again from the file', async () => {
    const temp = tempDir('mcp-spy-ui-sources-');
    onTestFinished(temp.remove);
    const lines = sampleSession();
    const path = temp.file('wire.jsonl', `${lines.join('\n')}\n`);
    const { items, caughtUp } = follow([path]);
    await vi.waitFor(() => expect(caughtUp).toEqual([path]));
    const files = createFileLoader();
    onTestFinished(files.close);
    const row = { index: 0, session: '', file: path, lineNo: items[8]!.lineNo, offset: items[8]!.offset, length: items[8]!.length, entry: items[8]!.entry };
    expect(files.line(row)).toBe(lines[8]);
    expect(fieldOf(files.load(row)!, 'msg')).toEqual(fieldOf(items[8]!.entry, 'msg'));
  });

  it('read a frame of a span of captured lines again with its bytes and its annotations (pairing, latency)', async () => {
    const temp = tempDir('mcp-spy-ui-sources-');
    onTestFinished(temp.remove);
    const request = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { n: id } } });
    const answer = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `n=${id}` }] } });
    const span = (seq: number, t: string, dir: string, text: string) =>
      `{"v":2,"seq":${seq},"t":"${t}","session":"k3v","kind":"captured","dir":"${dir}","bytes":${Buffer.byteLength(text)},"frames":${text.split('\n').length - 1},"rawBase64":"${Buffer.from(text).toString('base64')}"}`;
    const lines = [
      '{"v":2,"seq":1,"t":"2026-07-28T10:00:00.000Z","session":"k3v","kind":"spawn","transport":"stdio","command":["srv"],"pid":7,"cwd":"/","spy":"0.1.0"}',
      span(2, '2026-07-28T10:00:00.100Z', 'c2s', `${request(1)}\n${request(2)}\n`),
      span(4, '2026-07-28T10:00:00.350Z', 's2c', `${answer(1)}\n${answer(2)}\n`),
    ];
    const path = temp.file('wire.jsonl', `${lines.join('\n')}\n`);
    const { items, caughtUp } = follow([path]);
    await vi.waitFor(() => expect(caughtUp).toEqual([path]));
    expect(items.map((item) => [item.entry.seq, item.entry.kind, item.lineNo])).toEqual([
      [1, 'spawn', 1],
      [2, 'request', 2],
      [3, 'request', 2],
      [4, 'response', 3],
      [5, 'response', 3],
    ]);
    const files = createFileLoader();
    onTestFinished(files.close);
    const rowOf = (at: number) => ({
      index: at,
      session: 'k3v',
      file: path,
      lineNo: items[at]!.lineNo,
      offset: items[at]!.offset,
      length: items[at]!.length,
      entry: items[at]!.entry,
    });
    // The second answer of its span: its own bytes, and the latency the reader paired it with.
    const loaded = files.load(rowOf(4))!;
    expect(fieldOf(loaded, 'msg')).toEqual(JSON.parse(answer(2)));
    expect(loaded).toMatchObject({ seq: 5, kind: 'response', id: 2, method: 'tools/call', tool: 'echo', latencyMs: 250 });
    expect(fieldOf(files.load(rowOf(1))!, 'msg')).toEqual(JSON.parse(request(1)));
  });

  it('say in a line what they cannot read, and go on with the rest', async () => {
    const temp = tempDir('mcp-spy-ui-sources-');
    onTestFinished(temp.remove);
    const html = temp.file('page.jsonl', '<html>\n');
    const good = temp.file('good.jsonl', `${sampleSession().join('\n')}\nnot json\n`);
    const { items, problems } = follow([html, good]);
    await vi.waitFor(() => expect(problems).toHaveLength(2));
    expect(problems).toContain(`${good}:13: not JSON; skipped`);
    expect(problems.find((text) => text.startsWith(html))).toMatch(/unknown format/);
    expect(items).toHaveLength(12);
  });
});
