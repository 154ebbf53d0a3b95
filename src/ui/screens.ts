import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import type { Palette } from '../render/styles.js';
import { frameLine } from './frame-line.js';
import { inspectorLines } from './inspector-lines.js';
import { keyHelp } from './keys.js';
import { clientLabel, serverLabel, type SessionInfo } from './sessions.js';
import { bodyHeight, selectedRow, type ViewState } from './state.js';
import { bytesText, clock, fit, wireText } from './text.js';
import { toolsSummary } from './tools-summary.js';

export interface ScreenProps {
  state: ViewState;
  palette: Palette;
}

/** One line of the screen, cut to the width (never wrapped: the layout counts lines). */
const line = (text: string, key: number | string, inverse = false): ReactElement => h(Text, { key, wrap: 'truncate-end', inverse }, text === '' ? ' ' : text);

/** The lines of a list that fit, scrolled so that the cursor is on screen. */
function windowOf(count: number, cursor: number, height: number): [number, number] {
  const start = Math.max(0, Math.min(cursor - Math.floor(height / 2), count - height));
  return [start, Math.min(count, start + height)];
}

const peer = (name: string, version: string | undefined) => wireText(version ? `${name} ${version}` : name, 60);

/**
 * The sessions list's columns: wider names when the terminal has room. From 100 columns on, what is
 * left goes to the server's and the client's names (`mcp-servers/everything 2.0.0` was cut at 120),
 * up to the 60 a name is shown at most.
 */
function sessionWidths(width: number): number[] {
  if (width < 100) return [18, 13, 11, 6, 6, 5, 13, 5];
  const spare = width - 100;
  return [24 + Math.min(36, Math.ceil(spare / 2)), 18 + Math.min(42, Math.floor(spare / 2)), 11, 6, 7, 7, 13, 5];
}

function sessionColumns(session: SessionInfo | undefined, width: number, all: { frames: number; errors: number }): string {
  const cols = session
    ? [
        peer(serverLabel(session), session.server?.version),
        peer(clientLabel(session), session.client?.version),
        wireText(session.revision ?? '?', 12),
        session.transport ?? '?',
        String(session.frames),
        String(session.errors),
        clock(session.last),
        session.ended ? 'ended' : 'live',
      ]
    : ['all sessions, merged', '', '', '', String(all.frames), String(all.errors), '', ''];
  const widths = sessionWidths(width);
  return cols.map((col, index) => fit(col, widths[index]!)).join(' ');
}

export function SessionsScreen({ state }: ScreenProps): ReactElement {
  const height = bodyHeight(state);
  const all = state.sessions.reduce((sum, s) => ({ frames: sum.frames + s.frames, errors: sum.errors + s.errors }), { frames: 0, errors: 0 });
  const heads =
    state.width >= 100
      ? ['server', 'client', 'revision', 'via', 'frames', 'errors', 'last', 'state']
      : ['server', 'client', 'revision', 'via', 'frames', 'errs', 'last', 'state'];
  const widths = sessionWidths(state.width);
  const [start, end] = windowOf(state.sessions.length + 1, state.sessionCursor, height);
  const rows: ReactElement[] = [];
  for (let index = start; index < end; index++) {
    const selected = index === state.sessionCursor;
    rows.push(line(`${selected ? '>' : ' '} ${sessionColumns(index === 0 ? undefined : state.sessions[index - 1], state.width, all)}`, index, selected));
  }
  if (state.sessions.length === 0)
    rows.push(line(`  no sessions yet${state.where ? ` in ${wireText(state.where, 300)}` : ''}: waiting for records to appear`, 'none'));
  return h(Box, { flexDirection: 'column' }, line(`  ${heads.map((head, index) => fit(head, widths[index]!)).join(' ')}`, 'heads'), ...rows);
}

export function FramesScreen({ state, palette }: ScreenProps): ReactElement {
  const height = bodyHeight(state);
  const merged = state.scope === undefined && state.sessions.length > 1;
  const current = selectedRow(state);
  const [start, end] = windowOf(state.visible.length, state.cursor, height);
  const rows: ReactElement[] = [];
  for (let at = start; at < end; at++) {
    const row = state.log.row(state.visible.at(at)!, state.load);
    const mark = at === state.cursor ? '>' : current?.pair === row.index ? '*' : ' ';
    const session = merged ? state.sessionIndex.get(row.session) : undefined;
    const text = frameLine(row, { width: state.width, palette, mark, sessionLabel: session ? serverLabel(session) : undefined });
    rows.push(line(text, row.index, at === state.cursor));
  }
  if (state.visible.length === 0) rows.push(line(state.filter.source ? '  no frame passes the filter' : '  no frames yet', 'none'));
  const heads = `  ${'time'.padEnd(12)} ${merged ? `${'server'.padEnd(12)} ` : ''}   kind        method, tool, id, latency, notes   (* marks the pair)`;
  return h(Box, { flexDirection: 'column' }, line(heads, 'heads'), ...rows);
}

export function InspectorScreen({ state }: ScreenProps): ReactElement {
  const lines = inspectorLines(state);
  const height = bodyHeight(state) + 1;
  const start = Math.min(state.scroll, Math.max(0, lines.length - height));
  return h(Box, { flexDirection: 'column' }, ...lines.slice(start, start + height).map((text, index) => line(text, index)));
}

const num = (value: number | undefined, unit = '') => (value === undefined ? '-' : `${value}${unit}`);

export function ToolsScreen({ state }: ScreenProps): ReactElement {
  const tools = toolsSummary(state);
  const widths = [22, 6, 6, 8, 8, 10, 10, 10];
  const heads = ['tool', 'calls', 'errors', 'p50', 'p95', 'definition', 'results', 'largest'];
  const rows = tools.map((tool) =>
    [
      wireText(tool.name, 60),
      String(tool.calls),
      String(tool.errors),
      num(tool.p50, 'ms'),
      num(tool.p95, 'ms'),
      tool.definitionBytes === undefined ? '-' : bytesText(tool.definitionBytes),
      bytesText(tool.resultBytes),
      bytesText(tool.largestResult),
    ]
      .map((col, index) => fit(col, widths[index]!))
      .join(' '),
  );
  const height = bodyHeight(state);
  const start = Math.min(state.scroll, Math.max(0, rows.length - height));
  const shown = rows.slice(start, start + height).map((text, index) => line(`  ${text}`, index));
  if (rows.length === 0) shown.push(line('  no tools listed or called yet', 'none'));
  return h(Box, { flexDirection: 'column' }, line(`  ${heads.map((head, index) => fit(head, widths[index]!)).join(' ')}`, 'heads'), ...shown);
}

export function HelpScreen({ state }: ScreenProps): ReactElement {
  const lines = keyHelp.map(([keys, what]) => `  ${keys.padEnd(16)} ${what}`);
  const start = Math.min(state.scroll, Math.max(0, lines.length - bodyHeight(state)));
  return h(Box, { flexDirection: 'column' }, line('  keys (Esc or ? to go back)', 'heads'), ...lines.slice(start).map((text, index) => line(text, index)));
}
