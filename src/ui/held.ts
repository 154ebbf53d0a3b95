// The frames spies started with --intercept hold, as the console shows them (`i`): a list, the
// frame under the cursor in full, and the keys that let it go (forward, edit, drop, answer with an error).
import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import type { HeldItem } from './held-types.js';
import { printableJson, sanitize } from '../render/sanitize.js';
import { wrapLines } from './inspector-lines.js';
import { bodyHeight, type ViewState } from './state.js';
import { clock, fit, wireText } from './text.js';

const sameHold = (item: HeldItem, socket: string, hold: number) => item.socket === socket && item.frame.hold === hold;

export function addHeld(state: ViewState, item: HeldItem): ViewState {
  if (state.held.some((held) => sameHold(held, item.socket, item.frame.hold))) return state;
  const status = state.screen === 'held' ? state.status : `a frame is held by --intercept (${state.held.length + 1} in all): i shows it`;
  return { ...state, held: [...state.held, item], status };
}

export function removeHeld(state: ViewState, test: (item: HeldItem) => boolean): ViewState {
  const held = state.held.filter((item) => !test(item));
  if (held.length === state.held.length) return state;
  return { ...state, held, heldCursor: Math.max(0, Math.min(state.heldCursor, held.length - 1)) };
}

export const releasedHeld = (state: ViewState, socket: string, hold: number) => removeHeld(state, (item) => sameHold(item, socket, hold));

export function heldProblem(state: ViewState, socket: string, hold: number, text: string | undefined): ViewState {
  return { ...state, held: state.held.map((item) => (sameHold(item, socket, hold) ? { ...item, problem: text } : item)) };
}

/** The frame as it is edited: pretty JSON when it is JSON, else as it came. */
export function prettyFrame(frame: string): string {
  try {
    return JSON.stringify(JSON.parse(frame), null, 2);
  } catch {
    return frame;
  }
}

/** The frame as it is shown: pretty JSON (controls and bidi overrides escaped), or its text made safe. */
function shownFrame(frame: string): string[] {
  try {
    return printableJson(JSON.parse(frame), 2).split('\n');
  } catch {
    return [sanitize(frame)];
  }
}

const line = (text: string, key: number | string, inverse = false): ReactElement => h(Text, { key, wrap: 'truncate-end', inverse }, text === '' ? ' ' : text);

function heldColumns(item: HeldItem, width: number): string {
  const { frame } = item;
  const what = [frame.method ?? frame.kind, frame.tool !== undefined ? `tool=${frame.tool}` : '', frame.id !== undefined ? `#${JSON.stringify(frame.id)}` : '']
    .filter(Boolean)
    .join(' ');
  const until = clock(new Date(frame.deadline).toISOString());
  return `${fit(`#${frame.hold}`, 5)} ${fit(wireText(item.spy, 40), Math.max(12, Math.floor(width / 4)))} ${frame.dir === 'c2s' ? '->' : '<-'} ${fit(wireText(what, 120), Math.max(20, Math.floor(width / 2) - 8))} ${until}`;
}

export function HeldScreen({ state }: { state: ViewState }): ReactElement {
  const height = bodyHeight(state);
  if (state.held.length === 0) {
    return h(
      Box,
      { flexDirection: 'column' },
      line('  no frame is held: a spy started with --intercept FILTER holds the frames its filter matches here', 'none'),
    );
  }
  const listHeight = Math.max(1, Math.min(state.held.length, Math.floor(height / 3)));
  const start = Math.max(0, Math.min(state.heldCursor - Math.floor(listHeight / 2), state.held.length - listHeight));
  const rows = state.held.slice(start, start + listHeight).map((item, index) => {
    const selected = start + index === state.heldCursor;
    return line(`${selected ? '>' : ' '} ${heldColumns(item, state.width)}`, `held-${item.socket}-${item.frame.hold}`, selected);
  });
  const current = state.held[state.heldCursor]!;
  const detail = [
    `  #${current.frame.hold} held by ${wireText(current.spy, 60)}: a forward  e edit  d drop  x error  (else it goes on as it is at ${clock(new Date(current.frame.deadline).toISOString())})`,
    ...(current.problem ? [`  ✗ ${wireText(current.problem, 500)}`] : []),
    ...wrapLines(
      shownFrame(current.frame.frame).map((text) => `  ${text}`),
      state.width,
    ),
  ];
  const room = Math.max(0, height - listHeight - 1);
  const heads = `  ${fit('hold', 5)} ${fit('spy', Math.max(12, Math.floor(state.width / 4)))}    ${fit('frame', Math.max(20, Math.floor(state.width / 2) - 8))} goes on at`;
  return h(Box, { flexDirection: 'column' }, line(heads, 'heads'), ...rows, ...detail.slice(0, room).map((text, index) => line(text, `detail-${index}`)));
}
