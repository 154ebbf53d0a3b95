// The pure parts of --intercept: what the filter reads of a frame, the check of an edit, the control
// socket's requests, the holds and their bounds (timers faked), and the console's held screen state.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from 'ink';
import { checkEditedFrame, interceptEntry, newRequestsSeen } from '../../src/faults/intercept-frame.js';
import { createHolds, type HoldOutcome } from '../../src/faults/intercept-holds.js';
import { readControlRequest } from '../../src/faults/intercept-socket.js';
import { parseFilter } from '../../src/review/filter-expression.js';
import { reduce } from '../../src/ui/reducer.js';
import { initialState } from '../../src/ui/state.js';
import type { EventFields, RecordEntry } from '../../src/record/schema.js';

const call = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}';
const answer = '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}';

describe('what --intercept reads of a frame', () => {
  it('a request has its tool; its answer takes the request\'s method and tool, so `tool = "echo"` matches both', () => {
    const sent = newRequestsSeen();
    const test = (parseFilter('tool = "echo"') as { test: (entry: RecordEntry) => boolean }).test;
    const request = interceptEntry(call, 'c2s', 's1', sent, 1000);
    expect(request).toMatchObject({ kind: 'request', dir: 'c2s', method: 'tools/call', tool: 'echo', id: 7, session: 's1' });
    const response = interceptEntry(answer, 's2c', 's1', sent, 1250);
    expect(response).toMatchObject({ kind: 'response', method: 'tools/call', tool: 'echo', latencyMs: 250 });
    expect([test(request), test(response)]).toEqual([true, true]);
    expect(interceptEntry('not json', 's2c', undefined, sent)).toMatchObject({ kind: 'invalid', raw: 'not json' });
  });
});

describe('an edited frame', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":', /^the edited frame is not JSON: /],
    ['{"id":1,"method":"x"}', /^the edited frame is not valid JSON-RPC: not a JSON-RPC 2.0 message/],
    ['{"jsonrpc":"2.0","id":{},"method":"x"}', /^the edited frame is not valid JSON-RPC: its id must be a string, a number or null/],
    ['[]', /^the edited frame is an empty batch$/],
    ['[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"1.0","method":"b"}]', /^member 2 of the batch is not valid JSON-RPC/],
  ])('%s is refused with why', (text, message) => {
    const checked = checkEditedFrame(text);
    expect(checked.ok).toBe(false);
    expect((checked as { message: string }).message).toMatch(message);
  });

  it('goes on one line: as typed when it is one, compact when it spans lines', () => {
    expect(checkEditedFrame(` ${call}\n`)).toEqual({ ok: true, line: call });
    expect(checkEditedFrame(JSON.stringify(JSON.parse(call), null, 2))).toEqual({ ok: true, line: call });
  });
});

describe('a control socket request', () => {
  it.each([
    ['{"op":"forward","hold":1}', { action: 'forward', hold: 1 }],
    ['{"op":"edit","hold":2,"frame":"{}","ref":"a"}', { action: 'edit', hold: 2, frame: '{}', ref: 'a' }],
    ['{"op":"error","hold":3,"code":-1,"message":"no"}', { action: 'error', hold: 3, code: -1, message: 'no' }],
    ['nope', { problem: expect.stringMatching(/^not JSON/) }],
    ['{"op":"launch","hold":1}', { problem: 'op is one of forward, edit, drop, error' }],
    ['{"op":"edit","hold":1}', { problem: 'edit needs frame: the frame to send, as text' }],
    ['{"op":"drop","hold":"1"}', { problem: 'hold is the number of a held frame' }],
  ])('%s', (line, read) => {
    expect(readControlRequest(line)).toEqual(read);
  });
});

describe('the holds and their bounds', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function holdsOf(maxHeld = 100) {
    vi.useFakeTimers();
    const events: EventFields<'intercept'>[] = [];
    const said: string[] = [];
    const holds = createHolds(
      { filter: 'tool = "echo"', test: () => true, holdMs: 1000, maxHeld },
      { event: (fields) => events.push(fields), say: (line) => said.push(line), now: () => Date.now() },
    );
    const outcomes: HoldOutcome[] = [];
    const hold = (text = call) => holds.hold(interceptEntry(text, 'c2s', undefined, newRequestsSeen()), text, (outcome) => outcomes.push(outcome));
    return { holds, events, said, outcomes, hold };
  }

  it('lets a frame nobody releases go as it was at the time bound, and says so with no console', () => {
    const { events, said, outcomes, hold } = holdsOf();
    hold();
    vi.advanceTimersByTime(999);
    expect(outcomes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(outcomes).toEqual([{ action: 'forward' }]);
    expect(events.map((event) => [event.action, event.by, event.heldMs])).toEqual([
      ['hold', undefined, undefined],
      ['forward', 'bound', 1000],
    ]);
    expect(said).toEqual([
      'holding #1 -> tools/call tool=echo id=7: release it in mcp-spy ui (forward, edit, drop, error); it goes on as it was in 1 s',
      '#1 held 1 s (--hold-timeout) with no release: passed on as it was',
    ]);
  });

  it("bounds a whole exchange: an answer is held for what its request's hold left of --hold-timeout", () => {
    const { holds, said, outcomes } = holdsOf();
    const sent = newRequestsSeen();
    const holdOf = (text: string, dir: 'c2s' | 's2c') => holds.hold(interceptEntry(text, dir, undefined, sent), text, (outcome) => outcomes.push(outcome));
    holdOf(call, 'c2s');
    vi.advanceTimersByTime(700);
    holds.release(1, { action: 'forward' });
    expect(holdOf(answer, 's2c').deadline).toBe(Date.now() + 300);
    vi.advanceTimersByTime(299);
    expect(outcomes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(outcomes).toHaveLength(2);
    expect(said.at(-1)).toBe("#2 held 0.3 s with no release (what its request's hold left of --hold-timeout 1 s): passed on as it was");
    // A request let go at the bound leaves its answer nothing: it goes on at once.
    const again = call.replace('"id":7', '"id":8');
    holdOf(again, 'c2s');
    vi.advanceTimersByTime(1000);
    holdOf(answer.replace('"id":7', '"id":8'), 's2c');
    vi.advanceTimersByTime(0);
    expect(outcomes).toHaveLength(4);
    expect(holds.held()).toEqual([]);
  });

  it('lets the oldest go past the count bound; says nothing on stderr while a console listens', () => {
    const { holds, said, outcomes, hold } = holdsOf(2);
    const news: unknown[] = [];
    holds.listen((item) => news.push(item));
    hold();
    hold();
    hold();
    expect(outcomes).toEqual([{ action: 'forward' }]);
    expect(holds.held().map((frame) => frame.hold)).toEqual([2, 3]);
    expect(news).toContainEqual({ type: 'released', hold: 1, action: 'forward', by: 'bound' });
    expect(said).toEqual([]);
  });

  it('answers only a request with an error, checks an edit, and lets go of all at the end', () => {
    const { holds, outcomes, hold } = holdsOf();
    hold('{"jsonrpc":"2.0","method":"notifications/message","params":{}}');
    hold();
    expect(holds.release(1, { action: 'error' })).toEqual({
      ok: false,
      message: 'only a request can be answered with an error; #1 is a notification (drop it instead)',
    });
    expect(holds.release(2, { action: 'edit', frame: '{' })).toMatchObject({ ok: false });
    expect(holds.release(2, { action: 'error', code: -32000, message: 'no' })).toMatchObject({ ok: true });
    expect(outcomes).toEqual([{ action: 'error', answer: '{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"no"}}' }]);
    holds.releaseAll();
    expect(outcomes.at(-1)).toEqual({ action: 'forward' });
    expect(holds.held()).toEqual([]);
  });
});

describe("the console's held screen", () => {
  const key = (input: string, extra: Partial<Key> = {}) => ({ type: 'key' as const, input, key: { ...extra } as Key });
  const frame = { dir: 'c2s' as const, kind: 'request', method: 'tools/call', tool: 'echo', id: 7, hold: 1, frame: call, heldAt: 0, deadline: 1000 };

  it('says a frame is held on every screen, opens on i, asks the shell to let it go, and forgets it once released', () => {
    let state = reduce(initialState(), { type: 'held', item: { socket: '/s.sock', spy: 'cli/everything', frame } });
    expect(state.status).toBe('a frame is held by --intercept (1 in all): i shows it');
    state = reduce(state, key('i'));
    expect(state.screen).toBe('held');
    expect(reduce(state, key('e')).effect?.name).toBe('hold-edit');
    expect(reduce(state, key('', { return: true })).effect?.name).toBe('hold-forward');
    expect(reduce(state, key('x')).effect?.name).toBe('hold-error');
    state = reduce(state, { type: 'held-problem', socket: '/s.sock', hold: 1, text: 'not JSON' });
    expect(state.held[0]!.problem).toBe('not JSON');
    state = reduce(state, { type: 'released', socket: '/s.sock', hold: 1 });
    expect(state.held).toEqual([]);
    expect(reduce(state, key('', { escape: true })).screen).toBe('sessions');
  });
});

describe('the report page', () => {
  it('marks a frame held by --intercept apart, and one edited or answered at the console as made there', async () => {
    const { faultMark } = await import('../../src/report/page/frames.js');
    const frame = { v: 1, seq: 1, line: 1, session: 's', dir: 'c2s', kind: 'request', intercept: 'tool = "echo"' } as Parameters<typeof faultMark>[0];
    expect(faultMark(frame)).toMatchObject({ class: 'faulted', label: 'intercepted' });
    expect(faultMark({ ...frame, origin: 'spy', edited: true })).toMatchObject({ class: 'injected', label: 'edited at the intercept' });
    expect(faultMark({ ...frame, origin: 'spy' })).toMatchObject({ class: 'injected', label: 'answered at the intercept' });
  });
});

describe('a held frame on stdio', () => {
  it('holds the lines behind it in its direction, in order, while the other direction flows', async () => {
    const { createStdioIntercept } = await import('../../src/faults/intercept-stdio.js');
    const holds = createHolds(
      {
        filter: 'tool = "echo"',
        test: (parseFilter('tool = "echo" and dir = c2s') as { test: (entry: RecordEntry) => boolean }).test,
        holdMs: 60_000,
        maxHeld: 10,
      },
      { event: () => {}, say: () => {} },
    );
    const written: string[] = [];
    const recorded: { dir: string; text: string; mark?: Partial<RecordEntry> }[] = [];
    const io = { write: (dir: 'c2s' | 's2c', bytes: Buffer) => void written.push(`${dir} ${bytes.toString().trim()}`), disconnect: () => {} };
    const stream = createStdioIntercept(holds, 's', io, {
      line: (dir, bytes, mark) => void recorded.push({ dir, text: bytes.toString().trim(), ...(mark ? { mark } : {}) }),
    });
    const ping = '{"jsonrpc":"2.0","id":8,"method":"ping"}';
    const note = '{"jsonrpc":"2.0","method":"notifications/message","params":{}}';
    stream.chunk('c2s', Buffer.from(`${call}\n${ping}\n`));
    stream.chunk('s2c', Buffer.from(`${note}\n`));
    expect(written).toEqual([`s2c ${note}`]);
    let ended = false;
    stream.end('c2s', () => (ended = true));
    expect(ended).toBe(false);
    expect(holds.release(1, { action: 'edit', frame: call.replace('"hi"', '"edited"') })).toMatchObject({ ok: true });
    expect(written).toEqual([`s2c ${note}`, `c2s ${call.replace('"hi"', '"edited"')}`, `c2s ${ping}`]);
    expect(ended).toBe(true);
    expect(recorded[1]).toEqual({ dir: 'c2s', text: call.replace('"hi"', '"edited"'), mark: { intercept: 'tool = "echo"', origin: 'spy', original: call } });
    expect(recorded[2]).toEqual({ dir: 'c2s', text: ping });
  });
});
