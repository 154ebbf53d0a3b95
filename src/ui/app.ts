import { Box, Text, useApp, useInput } from 'ink';
import { createElement as h, useEffect, useReducer, type ReactElement } from 'react';
import { createPalette } from '../render/styles.js';
import type { Action, Effect } from './console-actions.js';
import { reduce } from './reducer.js';
import { serverLabel } from './sessions.js';
import { FramesScreen, HelpScreen, InspectorScreen, SessionsScreen, ToolsScreen, type ScreenProps } from './screens.js';
import type { Screen, ViewState } from './state.js';
import { HeldScreen } from './held.js';
import { heldKeys, type HoldEffect } from './held-types.js';

/** Each way of letting a held frame go, as an effect. */
const holdEffects = (release: (how: HoldEffect) => string | Promise<string>) =>
  Object.fromEntries(heldKeys.map(([, , how]) => [how, () => release(how)])) as Record<HoldEffect, () => string | Promise<string>>;
import { wireText } from './text.js';

/** What the console does outside its state; each says in a line what it did. */
export interface Effects {
  copy?: (state: ViewState) => string;
  export?: (state: ViewState) => string;
  exportHar?: (state: ViewState) => Promise<string>;
  exportReport?: (state: ViewState) => Promise<string>;
  suspend?: () => void;
  /** Lets the held frame under the cursor go, over its spy's control socket; says what came of it. */
  release?: (state: ViewState, how: HoldEffect) => Promise<string>;
}

export interface AppProps {
  initial: ViewState;
  color: boolean;
  /** Starts feeding the console (entries, the terminal's size as it changes); returns how to stop. */
  connect?: (dispatch: (action: Action) => void) => () => void;
  effects?: Effects;
}

const screens: Record<Screen, (props: ScreenProps) => ReactElement> = {
  sessions: SessionsScreen,
  frames: FramesScreen,
  inspector: InspectorScreen,
  tools: ToolsScreen,
  help: HelpScreen,
  held: HeldScreen,
};

const titles: Record<Screen, string> = { sessions: 'sessions', frames: 'frames', inspector: 'inspector', tools: 'tools', help: 'help', held: 'held' };

function titleLine(state: ViewState): string {
  const scope = state.scope === undefined ? `all sessions (${state.sessions.length})` : wireText(serverLabel(state.sessionIndex.get(state.scope)!), 30);
  const waiting = state.paused ? ` · PAUSED (${state.log.length - state.shown} new)` : '';
  const position = state.visible.length === 0 ? '0' : `${state.cursor + 1}/${state.visible.length}`;
  const filter = state.filter.source ? ` · filter: ${wireText(state.filter.source, 60)}` : '';
  // Held frames are said on every screen: a client waits on each of them.
  const held = state.held.length > 0 ? ` · HELD ${state.held.length} (i)` : '';
  if (state.screen === 'held') return `held · ${state.held.length} frame(s) held by --intercept`;
  return `${titles[state.screen]} · ${scope} · frame ${position}${held}${state.follow ? ' · FOLLOW' : ''}${waiting}${filter}`;
}

function statusLine(state: ViewState): string {
  if (state.editing) return `/${state.editing.text}▏${state.editing.error ? `  ✗ ${state.editing.error}` : ''}`;
  // A status may quote a file's words (a line it skipped): made safe like the rest.
  return wireText(state.status ?? '', 500);
}

/** The keys at the foot of the screen: all the main ones when there is room, the essential ones at 80 columns. */
const hints = (width: number, screen: Screen) =>
  screen === 'held'
    ? '↑↓ move  a/Enter forward  e edit  d drop  x error  Esc back  q quit'
    : width >= 100
      ? '↑↓ move  Enter open  Esc back  / filter  n/N  f follow  p pause  y copy  e export  ? help  q quit'
      : 'Enter open  Esc back  / filter  f follow  p pause  Tab  ? help  q quit';

/** The console: a title, the current screen, a status line and the keys; the state lives in the reducer. */
export function App({ initial, color, connect, effects = {} }: AppProps): ReactElement {
  const [state, dispatch] = useReducer(reduce, initial);
  const { exit } = useApp();
  const palette = createPalette(color);

  useEffect(() => connect?.(dispatch), [connect]);

  useInput((input, key) => dispatch({ type: 'key', input, key }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: an effect runs once per request (its serial), with the state it was asked in; a later state must not run it again.
  useEffect(() => {
    if (!state.effect) return;
    const effectsTable: Record<Effect, () => string | Promise<string> | undefined> = {
      quit: () => {
        exit();
        return undefined;
      },
      copy: () => effects.copy?.(state) ?? 'copy is not available here',
      export: () => effects.export?.(state) ?? 'export is not available here',
      'export-har': () => effects.exportHar?.(state) ?? 'export is not available here',
      'export-report': () => effects.exportReport?.(state) ?? 'export is not available here',
      suspend: () => {
        effects.suspend?.();
        return undefined;
      },
      ...holdEffects((how) => effects.release?.(state, how) ?? 'releasing held frames is not available here'),
    };
    // An export may take a moment (HAR): the console goes on meanwhile and says when it is written.
    void Promise.resolve(effectsTable[state.effect.name]()).then((text) => dispatch({ type: 'effect-done', text }));
  }, [state.effect?.serial]);

  const body = screens[state.screen]({ state, palette });
  const text = (value: string, key: string, dim = false) =>
    h(Text, { key, wrap: 'truncate-end', dimColor: dim && color, inverse: !dim && color }, value === '' ? ' ' : value);
  return h(
    Box,
    { flexDirection: 'column', width: state.width, height: state.height },
    text(titleLine(state), 'title'),
    h(Box, { key: 'body', flexDirection: 'column', flexGrow: 1 }, body),
    text(statusLine(state), 'status', true),
    text(hints(state.width, state.screen), 'hints', true),
  );
}
