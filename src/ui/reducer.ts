import { parseFilter } from '../review/filter-expression.js';
import type { Key } from 'ink';
import type { Action } from './console-actions.js';
import { goneSessions } from './sessions.js';
import { addHeld, heldProblem, releasedHeld, removeHeld } from './held.js';
import { inspectorLines } from './inspector-lines.js';
import { keyAction, keyHelp, keyOfCharacter } from './keys.js';
import { toolsSummary } from './tools-summary.js';
import type { Row } from './rows.js';
import { bodyHeight, compileFilter, extendVisible, ingest, rebuildVisible, selectedRow, answerKinds, type Pane, type Screen, type ViewState } from './state.js';

/** The inspector opens a frame on its own side: an answer on the answer's. */
const paneOf = (row: Row): Pane => (answerKinds.has(row.entry.kind) ? 'answer' : 'request');

const clamp = (value: number, length: number) => Math.max(0, Math.min(length - 1, value));

/** Moves what the current screen moves: the session, the frame, or the scroll of a page. */
function moveBy(state: ViewState, by: number): ViewState {
  if (state.screen === 'sessions') return { ...state, sessionCursor: clamp(state.sessionCursor + by, state.sessions.length + 1) };
  if (state.screen === 'held') return { ...state, heldCursor: clamp(state.heldCursor + by, state.held.length) };
  if (state.screen === 'frames') {
    const cursor = clamp(state.cursor + by, state.visible.length);
    // Moving by hand stops following, unless it lands on the newest frame going down.
    return { ...state, cursor, follow: state.follow && by > 0 && cursor === state.visible.length - 1 };
  }
  return { ...state, scroll: Math.max(0, Math.min(lastScroll(state), state.scroll + by)) };
}

/** How far a page (the inspector, the tools, the help) scrolls: to its last line at the foot of the screen. */
function lastScroll(state: ViewState): number {
  const lines: Partial<Record<Screen, () => number>> = {
    inspector: () => inspectorLines(state).length - 1,
    tools: () => toolsSummary(state).length,
    help: () => keyHelp.length,
  };
  return Math.max(0, (lines[state.screen]?.() ?? 0) - bodyHeight(state));
}

function toEnd(state: ViewState, end: 'top' | 'bottom'): ViewState {
  if (state.screen === 'sessions') return { ...state, sessionCursor: end === 'top' ? 0 : state.sessions.length };
  if (state.screen === 'frames')
    return { ...state, cursor: end === 'top' ? 0 : Math.max(0, state.visible.length - 1), follow: end === 'top' ? false : state.follow };
  return { ...state, scroll: end === 'top' ? 0 : lastScroll(state) };
}

const nextScreen: Record<Screen, Screen> = { sessions: 'frames', frames: 'tools', tools: 'sessions', inspector: 'inspector', help: 'help', held: 'held' };

function open(state: ViewState): ViewState {
  if (state.screen === 'sessions') {
    const scope = state.sessionCursor === 0 ? undefined : state.sessions[state.sessionCursor - 1]?.key;
    return rebuildVisible({ ...state, scope, screen: 'frames', cursor: 0 });
  }
  if (state.screen === 'frames') {
    const row = selectedRow(state);
    return row ? { ...state, screen: 'inspector', pane: paneOf(row), scroll: 0 } : state;
  }
  return state;
}

const backFrom: Record<Screen, (state: ViewState) => Screen> = {
  inspector: () => 'frames',
  frames: () => 'sessions',
  tools: () => 'frames',
  help: (state) => state.previous,
  held: (state) => (state.previous === 'held' || state.previous === 'help' ? 'frames' : state.previous),
  sessions: () => 'sessions',
};

function applyFilter(state: ViewState): ViewState {
  if (!state.editing) return state;
  const compiled = compileFilter(state.editing.text, state.load);
  if (!compiled.ok) return { ...state, editing: { ...state.editing, error: compiled.message } };
  const screen = state.screen === 'sessions' ? 'frames' : state.screen;
  return rebuildVisible({ ...state, filter: compiled.filter, editing: undefined, screen });
}

function pressKey(state: ViewState, input: string, key: Key): ViewState {
  const result = keyAction(state, input, key);
  if (!result) return state;
  // An effect (quit, copy, export) is the shell's to do: the state asks for it, the app does it once.
  if ('effect' in result) return { ...state, effect: { name: result.effect, serial: (state.effect?.serial ?? 0) + 1 } };
  return reduce({ ...state, status: undefined }, result.action);
}

const reducers: { [K in Action['type']]: (state: ViewState, action: Extract<Action, { type: K }>) => ViewState } = {
  entries: (state, action) => ingest(state, action.items),
  resize: (state, action) => ({ ...state, width: action.width, height: action.height }),
  move: (state, action) => moveBy(state, action.by),
  page: (state, action) => moveBy(state, action.by * bodyHeight(state)),
  top: (state) => toEnd(state, 'top'),
  bottom: (state) => toEnd(state, 'bottom'),
  open,
  back: (state) => ({ ...state, screen: backFrom[state.screen](state), scroll: 0 }),
  'filter-start': (state) => ({ ...state, editing: { text: state.filter.source } }),
  'filter-edit': (state, action) => {
    // Errors show in place as the filter is typed; an empty filter shows everything.
    const parsed = action.text.trim() === '' ? undefined : parseFilter(action.text);
    return { ...state, editing: { text: action.text, error: parsed && !parsed.ok ? parsed.message : undefined } };
  },
  'filter-apply': applyFilter,
  'filter-cancel': (state) => ({ ...state, editing: undefined }),
  match: (state, action) => {
    if (state.screen !== 'frames' && state.screen !== 'inspector') return state;
    const moved = { ...state, cursor: clamp(state.cursor + action.by, state.visible.length), follow: false, scroll: 0 };
    const row = selectedRow(moved);
    return row ? { ...moved, pane: paneOf(row) } : moved;
  },
  follow: (state) =>
    state.follow
      ? { ...state, follow: false }
      : extendVisible({ ...state, follow: true, paused: false, screen: state.screen === 'sessions' ? 'frames' : state.screen }),
  pause: (state) => (state.paused ? extendVisible({ ...state, paused: false }) : { ...state, paused: true, follow: false }),
  tab: (state) =>
    state.screen === 'inspector'
      ? { ...state, pane: state.pane === 'request' ? 'answer' : 'request', scroll: 0 }
      : { ...state, screen: nextScreen[state.screen], scroll: 0 },
  // Folding is the inspector's; kept as the frames change, so a run of big frames reads unfolded.
  unfold: (state) => (state.screen === 'inspector' ? { ...state, unfolded: !state.unfolded, status: state.unfolded ? 'folded' : 'unfolded' } : state),
  liveness: (state, action) => {
    const gone = goneSessions(state.sessions, action.alive);
    if (gone.length === 0) return state;
    for (const session of gone) session.ended = true;
    return { ...state, sessions: [...state.sessions] };
  },
  help: (state) => (state.screen === 'help' ? { ...state, screen: state.previous } : { ...state, screen: 'help', previous: state.screen }),
  status: (state, action) => ({ ...state, status: action.text }),
  key: (state, action) => {
    // Text pasted (or typed faster than it is read) comes as one input: each character is a key, an
    // Enter or a Ctrl-U among them too (a filter pasted with its newline is applied). So does a lone
    // newline, which Ink names no key.
    const unnamedControl = action.input.length === 1 && /[\u0000-\u001f\u007f]/.test(action.input) && !Object.values(action.key).some(Boolean);
    if ((action.input.length <= 1 && !unnamedControl) || action.key.ctrl || action.key.meta) return pressKey(state, action.input, action.key);
    const plain = Object.fromEntries(Object.keys(action.key).map((name) => [name, false])) as unknown as Key;
    return [...action.input].reduce((next, char) => {
      const pressed = keyOfCharacter(char, plain);
      return pressKey(next, pressed.input, pressed.key);
    }, state);
  },
  'effect-done': (state, action) => ({ ...state, effect: undefined, status: action.text ?? state.status }),
  'held-open': (state) => (state.screen === 'held' ? state : { ...state, screen: 'held', previous: state.screen, status: undefined }),
  held: (state, action) => addHeld(state, action.item),
  released: (state, action) => releasedHeld(state, action.socket, action.hold),
  'spy-gone': (state, action) => removeHeld(state, (item) => item.socket === action.socket),
  'held-problem': (state, action) => heldProblem(state, action.socket, action.hold, action.text),
};

/** The console's one reducer: pure but for the log and the sessions, which it appends to (see ViewState). */
export function reduce(state: ViewState, action: Action): ViewState {
  return (reducers[action.type] as (state: ViewState, action: Action) => ViewState)(state, action);
}
