import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFrame, exportHarShown, exportReportShown, exportShown } from '../../src/ui/effects.js';
import { reduce } from '../../src/ui/reducer.js';
import { initialState } from '../../src/ui/state.js';
import { tempDir } from '../helpers/spy.js';
import type { Row } from '../../src/ui/rows.js';
import { lineAt, memoryLoader, recordWriter, sampleSession, sourceEntries } from '../helpers/ui-records.js';

const temp = tempDir('mcp-spy-ui-effects-');
afterAll(() => temp.remove());
const file = 'wire.jsonl';

function stateOf(lines: string[]) {
  const state = reduce(initialState({ load: memoryLoader({ [file]: lines }) }), { type: 'entries', items: sourceEntries(file, lines) });
  return reduce(state, { type: 'open' });
}

const lineOf = (lines: string[]) => (row: Row) => lineAt(lines, row);

describe('y: copy the frame under the cursor', () => {
  it('writes its exact bytes to the clipboard with OSC 52', () => {
    const lines = sampleSession();
    const state = reduce(stateOf(lines), { type: 'move', by: -4 });
    let written = '';
    const said = copyFrame(state, { write: (text) => (written += text), env: { TERM: 'xterm-256color' }, dir: temp.dir, line: lineOf(lines) });
    const text = '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Echo: hello"}]}}';
    expect(written).toBe(`\u001b]52;c;${Buffer.from(text).toString('base64')}\u0007`);
    expect(said).toBe(`copied frame seq 8 (${text.length} bytes) to the clipboard (OSC 52)`);
  });

  it('writes a file instead where the terminal cannot take it (too big for OSC 52, or a linux console)', () => {
    const w = recordWriter();
    w.frame('s2c', 'response', { id: 1 }, { id: 1, result: { text: 'x'.repeat(100_000) } });
    let written = '';
    const said = copyFrame(stateOf(w.lines), {
      write: (text) => (written += text),
      env: {},
      dir: temp.dir,
      line: lineOf(w.lines),
      now: () => new Date(Date.UTC(2026, 11, 1)),
    });
    expect(written).toBe('');
    const path = /written to (.+)$/.exec(said)![1]!;
    expect(JSON.parse(readFileSync(path, 'utf8')).result.text).toHaveLength(100_000);
    const small = sampleSession();
    const linux = copyFrame(stateOf(small), { write: (text) => (written += text), env: { TERM: 'linux' }, dir: temp.dir, line: lineOf(small) });
    expect(linux).toMatch(/^frame seq 12 \(\d+ bytes\) written to /);
    expect(written).toBe('');
  });
});

describe('e: export what is shown', () => {
  it('writes the entries the stream shows, filtered, as their record lines', () => {
    const lines = sampleSession();
    let state = stateOf(lines);
    for (const action of [{ type: 'filter-start' }, { type: 'filter-edit', text: 'tool = "add"' }, { type: 'filter-apply' }] as const)
      state = reduce(state, action);
    const said = exportShown(state, { write: () => {}, env: {}, dir: temp.dir, line: lineOf(lines), now: () => new Date(Date.UTC(2026, 11, 1, 1)) });
    const path = /^exported 2 entries to (.+)$/.exec(said)![1]!;
    expect(readFileSync(path, 'utf8')).toBe(`${lines[8]}\n${lines[9]}\n`);
  });
});

describe('H: export what is shown as HAR', () => {
  it('writes the frames shown, whole, as the messages of a HAR 1.2 entry', async () => {
    const lines = sampleSession();
    let state = stateOf(lines);
    for (const action of [{ type: 'filter-start' }, { type: 'filter-edit', text: 'tool = "echo"' }, { type: 'filter-apply' }] as const)
      state = reduce(state, action);
    const said = await exportHarShown(state, {
      write: () => {},
      env: {},
      dir: temp.dir,
      line: lineOf(lines),
      version: '9.9.9',
      now: () => new Date(Date.UTC(2026, 11, 1, 2)),
    });
    const path = /^exported 2 entries as HAR to (.+)$/.exec(said)![1]!;
    const har = JSON.parse(readFileSync(path, 'utf8'));
    expect(har.log.creator.version).toBe('9.9.9');
    const messages = har.log.entries.flatMap((entry: { _webSocketMessages?: { data: string }[] }) => entry._webSocketMessages ?? []);
    expect(messages.map((message: { data: string }) => JSON.parse(message.data).id)).toEqual([3, 3]);
    expect(messages[1].data).toContain('Echo: hello');
  });
});

describe('R: export what is shown as a report page', () => {
  it('draws the frames shown, and only those, as mcp-spy report draws a record', async () => {
    const lines = sampleSession();
    let state = stateOf(lines);
    for (const action of [{ type: 'filter-start' }, { type: 'filter-edit', text: 'tool = "echo"' }, { type: 'filter-apply' }] as const)
      state = reduce(state, action);
    const said = await exportReportShown(state, {
      write: () => {},
      env: {},
      dir: temp.dir,
      line: lineOf(lines),
      version: '9.9.9',
      now: () => new Date(Date.UTC(2026, 11, 1, 3)),
    });
    const path = /^exported 2 entries as a report to (.+\.html)$/.exec(said)![1]!;
    const html = readFileSync(path, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('Echo: hello');
    // The add call the filter left out is not on the page.
    expect(html).not.toContain('a is not a number');
  });
});
