import type { Key } from 'ink';
import type { Action, Effect } from './console-actions.js';
import type { ViewState } from './state.js';
import { heldKeys } from './held-types.js';

export type KeyResult = { action: Action } | { effect: Effect } | undefined;

/** Every key, with what it does: the help screen is this table, so the two cannot drift. */
export const keyHelp: readonly (readonly [string, string])[] = [
  ['↑ ↓  j k', 'move (in the inspector: scroll)'],
  ['g G  Home End', 'first, last'],
  ['PgUp PgDn', 'a page up, down'],
  ['Enter', "open: a session's frames, a frame in the inspector"],
  ['Esc', 'back'],
  ['/', 'filter, in the view filter language (Enter applies, Esc cancels)'],
  ['n N', 'next, previous frame that passes the filter (in the inspector too)'],
  ['f', 'follow the newest frame (on, off)'],
  ['p', 'pause: new frames wait until p again'],
  ['z', 'inspector: unfold long strings and arrays (z again folds them)'],
  ['Tab', 'inspector: request, answer; elsewhere: sessions, frames, tools'],
  ['y', "copy the frame's JSON (OSC 52, or a file)"],
  ['e', 'export the frames shown as JSON Lines (a record)'],
  ['H', 'export the frames shown as HAR 1.2'],
  ['R', 'export the frames shown as a report page (HTML)'],
  ['i', 'held: the frames spies started with --intercept hold'],
  ...heldKeys.map(([key, what]) => [key, what] as const),
  ['?', 'this help'],
  ['q  Ctrl-C', 'quit'],
  ['Ctrl-Z', 'suspend (fg to come back)'],
];

const act = (action: Action): KeyResult => ({ action });

/** The named keys, as Ink reports them. */
const namedKeys: [keyof Key, KeyResult][] = [
  ['upArrow', act({ type: 'move', by: -1 })],
  ['downArrow', act({ type: 'move', by: 1 })],
  ['pageUp', act({ type: 'page', by: -1 })],
  ['pageDown', act({ type: 'page', by: 1 })],
  ['home', act({ type: 'top' })],
  ['end', act({ type: 'bottom' })],
  ['return', act({ type: 'open' })],
  ['escape', act({ type: 'back' })],
  ['tab', act({ type: 'tab' })],
];

const letters: Record<string, KeyResult> = {
  j: act({ type: 'move', by: 1 }),
  k: act({ type: 'move', by: -1 }),
  g: act({ type: 'top' }),
  G: act({ type: 'bottom' }),
  '/': act({ type: 'filter-start' }),
  n: act({ type: 'match', by: 1 }),
  N: act({ type: 'match', by: -1 }),
  f: act({ type: 'follow' }),
  p: act({ type: 'pause' }),
  z: act({ type: 'unfold' }),
  '?': act({ type: 'help' }),
  i: act({ type: 'held-open' }),
  q: { effect: 'quit' },
  y: { effect: 'copy' },
  e: { effect: 'export' },
  H: { effect: 'export-har' },
  R: { effect: 'export-report' },
};

/** The keys a control character stands for when it comes inside a run of input, where Ink names none. */
const controlCharacters: Record<string, Partial<Key>> = {
  '\r': { return: true },
  '\n': { return: true },
  '\t': { tab: true },
  '\b': { backspace: true },
  '\u007f': { backspace: true },
};

/**
 * One character of a run of input (a paste, or keys typed faster than the console reads them, which
 * Ink hands over as one input with no key named) as the key press it is: Enter, Tab, Backspace, Ctrl
 * and a letter, or the character itself.
 */
export function keyOfCharacter(char: string, plain: Key): { input: string; key: Key } {
  const named = controlCharacters[char];
  if (named) return { input: '', key: { ...plain, ...named } };
  const code = char.charCodeAt(0);
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...plain, ctrl: true } };
  return { input: char, key: plain };
}

/** While a filter is typed, keys edit it. */
function editingKey(text: string, input: string, key: Key): KeyResult {
  if (key.return) return act({ type: 'filter-apply' });
  if (key.escape) return act({ type: 'filter-cancel' });
  if (key.backspace || key.delete) return act({ type: 'filter-edit', text: text.slice(0, -1) });
  if (key.ctrl && input === 'u') return act({ type: 'filter-edit', text: '' });
  if (key.ctrl || key.meta || input === '' || /[\u0000-\u001f\u007f]/.test(input)) return undefined;
  return act({ type: 'filter-edit', text: text + input });
}

/** What a key press means in this state. */
export function keyAction(state: ViewState, input: string, key: Key): KeyResult {
  if (key.ctrl && input === 'c') return { effect: 'quit' };
  if (key.ctrl && input === 'z') return { effect: 'suspend' };
  if (state.editing) return editingKey(state.editing.text, input, key);
  // On the held screen its letters let the frame under the cursor go (e edits there, not exports).
  if (state.screen === 'held' && !key.ctrl && !key.meta) {
    const held = heldKeys.find(([letter]) => letter === input) ?? (key.return ? heldKeys[0] : undefined);
    if (held) return { effect: held[2] };
  }
  for (const [name, result] of namedKeys) if (key[name]) return result;
  if (key.ctrl || key.meta) return undefined;
  return Object.hasOwn(letters, input) ? letters[input] : undefined;
}
