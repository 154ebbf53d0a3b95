import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/ui/console-actions.js';
import { reduce } from '../../src/ui/reducer.js';
import { clientLabel, serverLabel } from '../../src/ui/sessions.js';
import { initialState, selectedRow, type ViewState } from '../../src/ui/state.js';
import { inspectorLines } from '../../src/ui/inspector-lines.js';
import { keyHelp } from '../../src/ui/keys.js';
import { memoryLoader, recordWriter, sampleSession, sourceEntries } from '../helpers/ui-records.js';
import { fieldOf } from '../../src/record/entry-fields.js';

const file = 'claude-code--my-everything--20261201T170000123Z-4242.jsonl';

function loaded(lines = sampleSession(), options: Parameters<typeof initialState>[0] = {}) {
  const state = initialState({ load: memoryLoader({ [file]: lines }), ...options });
  return reduce(state, { type: 'entries', items: sourceEntries(file, lines) });
}

const run = (state: ViewState, ...actions: Action[]) => actions.reduce(reduce, state);
/** Every row of the log, and the rows the stream shows, as the screens make them. */
const rows = (state: ViewState) => Array.from({ length: state.log.length }, (_, index) => state.log.row(index, state.load));
const shown = (state: ViewState) => Array.from(state.visible, (index) => state.log.row(index, state.load));
const methods = (state: ViewState) => shown(state).map((row) => `${row.entry.kind} ${fieldOf(row.entry, 'method') ?? ''}`.trim());

describe('the console state: sessions', () => {
  it('a session appears with its peers, revision, counts and names, from its entries', () => {
    const state = loaded();
    expect(state.sessions).toHaveLength(1);
    const [session] = state.sessions;
    expect(serverLabel(session!)).toBe('everything');
    expect(clientLabel(session!)).toBe('test-client');
    expect(session).toMatchObject({
      name: 'my-everything',
      clientName: 'claude-code',
      revision: '2025-06-18',
      transport: 'stdio',
      frames: 10,
      errors: 1,
      ended: true,
    });
    expect([...session!.toolBytes.keys()]).toEqual(['echo', 'add']);
    expect(session!.toolBytes.get('echo')).toBe(Buffer.byteLength(JSON.stringify({ name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } })));
  });

  it('names a session by its file when the spawn entry does not, and by its command when the file is not a session file', () => {
    const bare = recordWriter('s9');
    bare.event({ kind: 'spawn', transport: 'stdio', command: ['node', 'srv.js'] });
    const named = reduce(initialState(), { type: 'entries', items: sourceEntries('cursor--files--20261201T170000123Z-7.jsonl', bare.lines) });
    expect(named.sessions[0]).toMatchObject({ name: 'files', clientName: 'cursor' });
    const plain = reduce(initialState(), { type: 'entries', items: sourceEntries('wire.jsonl', bare.lines) });
    expect(serverLabel(plain.sessions[0]!)).toBe('node srv.js');
  });

  it('a second session appearing later is added after the first, and the merged stream shows both', () => {
    let state = loaded();
    state = reduce(state, { type: 'entries', items: sourceEntries('other.jsonl', sampleSession('s2', { server: 'memory' })) });
    expect(state.sessions.map(serverLabel)).toEqual(['everything', 'memory']);
    state = run(state, { type: 'open' });
    expect(state.screen).toBe('frames');
    expect(state.scope).toBeUndefined();
    expect(state.visible).toHaveLength(24);
    state = run(state, { type: 'back' }, { type: 'move', by: 2 }, { type: 'open' });
    expect(state.scope).toBe(state.sessions[1]!.key);
    expect(shown(state).every((row) => row.file === 'other.jsonl')).toBe(true);
  });
});

describe('the console state: moving', () => {
  it('follows the newest frame until moved by hand; g, G, pages and the ends clamp', () => {
    let state = run(loaded(), { type: 'open' });
    expect(state.follow).toBe(true);
    expect(state.cursor).toBe(11);
    state = run(state, { type: 'move', by: -1 });
    expect(state.follow).toBe(false);
    expect(state.cursor).toBe(10);
    state = run(state, { type: 'top' }, { type: 'move', by: -5 });
    expect(state.cursor).toBe(0);
    state = run(state, { type: 'resize', width: 80, height: 8 }, { type: 'page', by: 1 });
    expect(state.cursor).toBe(4);
    state = run(state, { type: 'bottom' }, { type: 'move', by: 3 });
    expect(state.cursor).toBe(11);
    // New entries do not move a cursor that is not following.
    state = run(state, { type: 'top' }, { type: 'entries', items: sourceEntries('b.jsonl', sampleSession('b')) });
    expect(state.cursor).toBe(0);
    state = run(state, { type: 'follow' });
    expect(state.cursor).toBe(state.visible.length - 1);
  });

  it('pauses: new entries are kept but not shown until it resumes', () => {
    let state = run(loaded(), { type: 'open' }, { type: 'pause' });
    expect(state).toMatchObject({ paused: true, follow: false });
    state = reduce(state, { type: 'entries', items: sourceEntries('b.jsonl', sampleSession('b')) });
    expect(state.visible).toHaveLength(12);
    expect(state.log.length).toBe(24);
    state = reduce(state, { type: 'pause' });
    expect(state.visible).toHaveLength(24);
  });
});

describe('the console state: pairing and the inspector', () => {
  it('pairs each answer with its request, both ways; progress and orphans stay unpaired', () => {
    const state = loaded();
    const call = rows(state).find((row) => fieldOf(row.entry, 'method') === 'tools/call' && row.entry.kind === 'request')!;
    const answer = rows(state)[call.pair!]!;
    expect(answer.entry).toMatchObject({ kind: 'response', id: 3 });
    expect(answer.pair).toBe(call.index);
    expect(rows(state).find((row) => fieldOf(row.entry, 'method') === 'notifications/progress')!.pair).toBeUndefined();
    expect(rows(state).find((row) => fieldOf(row.entry, 'id') === 99)!.pair).toBeUndefined();
  });

  it('opens a frame in the inspector on its side, Tab goes to the other, n/N move between frames, Esc goes back', () => {
    let state = run(loaded(), { type: 'open' }, { type: 'top' }, { type: 'move', by: 7 });
    expect(selectedRow(state)!.entry).toMatchObject({ kind: 'response', method: 'tools/call' });
    state = run(state, { type: 'open' });
    expect(state).toMatchObject({ screen: 'inspector', pane: 'answer' });
    state = run(state, { type: 'tab' });
    expect(state.pane).toBe('request');
    state = run(state, { type: 'match', by: 1 });
    expect(fieldOf(selectedRow(state)!.entry, 'id')).toBe(4);
    state = run(state, { type: 'back' });
    expect(state.screen).toBe('frames');
  });

  it('scrolls the inspector within its lines: G goes to the last page, k then goes up one line', () => {
    let state = run(loaded(undefined, { height: 8 }), { type: 'open' }, { type: 'top' }, { type: 'move', by: 7 }, { type: 'open' });
    state = run(state, { type: 'bottom' });
    const last = state.scroll;
    expect(last).toBeGreaterThan(0);
    expect(run(state, { type: 'move', by: 50 }).scroll).toBe(last);
    expect(run(state, { type: 'move', by: -1 }).scroll).toBe(last - 1);
    expect(run(state, { type: 'page', by: -1 }, { type: 'page', by: -1 }, { type: 'page', by: -1 }, { type: 'page', by: -1 }).scroll).toBe(0);
  });

  it('keeps no frame message in the log: the row is light, the loader reads the whole entry again', () => {
    const state = loaded();
    expect(rows(state).every((row) => fieldOf(row.entry, 'msg') === undefined)).toBe(true);
    // With a loader, the log keeps no entry at all: only its index.
    expect(Array.from({ length: state.log.length }, (_, index) => state.log.keptEntry(index)).every((entry) => entry === undefined)).toBe(true);
    expect(fieldOf(state.load(state.log.place(1))!, 'msg')).toMatchObject({ method: 'initialize' });
  });
});

describe('the console state: filtering', () => {
  it('narrows the stream with the view filter language; n/N then move between what matches', () => {
    let state = run(loaded(), { type: 'open' }, { type: 'filter-start' }, { type: 'filter-edit', text: 'tool = "echo"' }, { type: 'filter-apply' });
    expect(state.editing).toBeUndefined();
    expect(methods(state)).toEqual(['request tools/call', 'response tools/call']);
    state = run(state, { type: 'filter-start' }, { type: 'filter-edit', text: 'latency > 100' }, { type: 'filter-apply' });
    expect(shown(state).map((row) => fieldOf(row.entry, 'id'))).toEqual([3, 4]);
    state = run(state, { type: 'top' }, { type: 'match', by: 1 });
    expect(fieldOf(selectedRow(state)!.entry, 'id')).toBe(4);
  });

  it("shows a bad filter's error in place as it is typed, and does not apply it", () => {
    let state = run(loaded(), { type: 'open' }, { type: 'filter-start' }, { type: 'filter-edit', text: 'tool = ' });
    expect(state.editing!.error).toMatch(/expected a value after '=' at column 8/);
    state = run(state, { type: 'filter-apply' });
    expect(state.editing!.error).toMatch(/expected a value/);
    expect(state.visible).toHaveLength(12);
    state = run(state, { type: 'filter-edit', text: 'nosuch = 1' });
    expect(state.editing!.error).toMatch(/unknown field 'nosuch'/);
    state = run(state, { type: 'filter-cancel' });
    expect(state.editing).toBeUndefined();
    expect(state.filter.source).toBe('');
  });

  it('takes text and Enter arriving in one chunk (a paste, tmux send-keys) as typed, then applied', () => {
    const key = (input: string, extra: Partial<Key> = {}): Action => ({ type: 'key', input, key: { ...extra } as Key });
    let state = run(loaded(), { type: 'open' }, key('/'), key('kind = req'), key('uest\r'));
    expect(state.editing).toBeUndefined();
    expect(state.filter.source).toBe('kind = request');
    expect(methods(state).every((method) => method.startsWith('request'))).toBe(true);
    // A paste ending in a newline; a bad filter stays open with its error, as with Enter apart.
    state = run(state, key('/'), key('u', { ctrl: true }), key('tool = \n'));
    expect(state.editing).toMatchObject({ text: 'tool = ', error: expect.any(String) });
    state = run(state, key('', { backspace: true }), key('"echo"\r\njunk'));
    expect(state.editing).toBeUndefined();
    expect(state.filter.source).toBe('tool ="echo"');
    // A newline alone, which Ink names no key, is Enter too.
    state = run(state, key('/'), key('u', { ctrl: true }), key('kind = request'), key('\n'));
    expect(state.editing).toBeUndefined();
    expect(state.filter.source).toBe('kind = request');
  });

  it('applies a filter to entries that arrive later, and text reads the frame from its file', () => {
    const lines = sampleSession();
    let state = loaded(lines, { filter: 'text ~ "Echo: hello"' });
    expect(methods(state)).toEqual(['response tools/call']);
    state = reduce(state, { type: 'entries', items: sourceEntries('b.jsonl', sampleSession('b')) });
    // The second file has no loader here: its rows are tested as they are kept, without their text.
    expect(state.visible).toHaveLength(1);
    state = run(state, { type: 'filter-start' }, { type: 'filter-edit', text: 'kind = tool-error' }, { type: 'filter-apply' });
    expect(state.visible).toHaveLength(2);
  });
});

describe('the console state: folding in the inspector', () => {
  it('folds a long string and a long array, z unfolds them and z again folds them', () => {
    const w = recordWriter();
    const call = w.frame(
      'c2s',
      'request',
      { method: 'tools/call', id: 1, tool: 'read' },
      { id: 1, method: 'tools/call', params: { name: 'read', arguments: {} } },
    );
    const long = `${'a'.repeat(400)}END`;
    const items = Array.from({ length: 60 }, (_, index) => `item-${index}`);
    w.frame(
      's2c',
      'response',
      { method: 'tools/call', id: 1, tool: 'read', latencyMs: 2, related: { seq: call, id: 1, method: 'tools/call', tool: 'read' } },
      { id: 1, result: { content: [{ type: 'text', text: long }], items } },
    );
    let state = run(loaded(w.lines), { type: 'open' }, { type: 'bottom' }, { type: 'open' });
    const text = () => inspectorLines({ ...state, width: 1000 }).join('\n');
    expect(text()).toMatch(/… \(103 more characters\)/);
    expect(text()).toMatch(/… 10 more items/);
    expect(text()).not.toMatch(/^\s+"item-59"$/m);
    state = run(state, { type: 'key', input: 'z', key: {} as never });
    expect(state.unfolded).toBe(true);
    expect(text()).toMatch(new RegExp(`^\\s+"text": "${long}"$`, 'm'));
    expect(text()).toMatch(/^\s+"item-59"$/m);
    expect(text()).not.toMatch(/more characters|more items/);
    state = run(state, { type: 'key', input: 'z', key: {} as never });
    expect(text()).toMatch(/… \(103 more characters\)/);
  });

  it('lists z in the help', () => {
    expect(keyHelp.some(([keys, what]) => keys === 'z' && /unfold/.test(what))).toBe(true);
  });
});

describe('the console state: liveness', () => {
  it('ends a session without an exit entry once its writer runs no more: the pid of the file name, else of the spawn entry', () => {
    const cut = sampleSession().slice(0, -1);
    const named = reduce(initialState(), { type: 'entries', items: sourceEntries(file, cut) });
    const plain = reduce(initialState(), { type: 'entries', items: sourceEntries('wire.jsonl', cut) });
    expect(named.sessions[0]!.pid).toBe(4242);
    expect(plain.sessions[0]!.pid).toBe(42);
    const asked: number[] = [];
    const running = reduce(named, { type: 'liveness', alive: (pid) => (asked.push(pid), true) });
    expect(running.sessions[0]!.ended).toBe(false);
    expect(asked).toEqual([4242]);
    expect(reduce(plain, { type: 'liveness', alive: (pid) => pid !== 42 }).sessions[0]!.ended).toBe(true);
  });
});
