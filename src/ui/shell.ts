import { render } from 'ink';
import { createElement as h } from 'react';
import { alive, sessionsDirectory } from '../record/sessions-dir.js';
import { sanitize } from '../render/sanitize.js';
import { App } from './app.js';
import { copyFrame, exportHarShown, exportReportShown, exportShown } from './effects.js';
import type { Action } from './console-actions.js';
import { createFileLoader, followSources } from './sources.js';
import { linkIntercepts, type InterceptLink } from './intercept-link.js';
import { editInEditor, releaseHeld } from './release-held.js';
import { initialState } from './state.js';

/** Alternate screen on, cursor hidden; and the way back. */
const enter = '\u001b[?1049h\u001b[?25l';
const leave = '\u001b[?25h\u001b[?1049l';

const signalNumbers = { SIGINT: 2, SIGHUP: 1, SIGTERM: 15 } as const;

export interface ShellOptions {
  paths: string[];
  filter?: string;
  color: boolean;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  cwd: string;
  /** This mcp-spy's version (a HAR names its creator). */
  version?: string;
}

/**
 * Runs the console on the terminal until `q`, Ctrl-C or a signal, and gives the terminal back as it
 * was: the alternate screen left, the cursor shown, raw mode off, also on a crash and around Ctrl-Z.
 */
export async function runShell(options: ShellOptions): Promise<number> {
  const { stdin, stdout } = options;
  const files = createFileLoader();
  const stop = new AbortController();
  // Ink clears the whole terminal on every frame that fills it: the console leaves its last line free.
  const size = () => ({ width: stdout.columns || 80, height: Math.max(5, (stdout.rows || 24) - 1) });
  let dispatch: ((action: Action) => void) | undefined;
  let link: InterceptLink | undefined;
  const drafts = new Map<string, string>();
  let inside = false;
  const restore = () => {
    if (!inside) return;
    inside = false;
    if (stdin.isTTY) stdin.setRawMode(false);
    stdout.write(leave);
  };
  const reenter = () => {
    if (inside) return;
    inside = true;
    stdout.write(`${enter}\u001b[2J\u001b[H`);
  };

  reenter();
  // Raw before the first frame is drawn: a key pressed as soon as the screen shows is not lost in line mode.
  if (stdin.isTTY) stdin.setRawMode(true);
  const instance = render(
    h(App, {
      initial: initialState({ filter: options.filter, load: files.load, where: options.paths.join(', '), ...size() }),
      color: options.color,
      connect: (send) => {
        dispatch = send;
        const resize = () => send({ type: 'resize', ...size() });
        stdout.on('resize', resize);
        // A session is live while its writer runs: looked at every second, as `sessions` looks.
        const liveness = setInterval(() => send({ type: 'liveness', alive }), 1000);
        // Spies started with --intercept make their control sockets in the sessions directory, whatever records are shown.
        link = linkIntercepts([...new Set([...options.paths, sessionsDirectory(options.env)])], send);
        void followSources({
          paths: options.paths,
          signal: stop.signal,
          onBatch: (items) => send({ type: 'entries', items }),
          onProblem: (text) => send({ type: 'status', text }),
        });
        return () => {
          link?.stop();
          clearInterval(liveness);
          stdout.off('resize', resize);
        };
      },
      effects: {
        copy: (state) => copyFrame(state, { write: (text) => stdout.write(text), env: options.env, dir: options.cwd, line: files.line }),
        export: (state) => exportShown(state, { write: (text) => stdout.write(text), env: options.env, dir: options.cwd, line: files.line }),
        exportHar: (state) =>
          exportHarShown(state, { write: (text) => stdout.write(text), env: options.env, dir: options.cwd, line: files.line, version: options.version }),
        exportReport: (state) =>
          exportReportShown(state, { write: (text) => stdout.write(text), env: options.env, dir: options.cwd, line: files.line, version: options.version }),
        suspend: () => {
          restore();
          process.kill(process.pid, 'SIGTSTP');
        },
        release: (state, how) => {
          if (!link) return Promise.resolve('not linked to any spy yet');
          // The editor gets the terminal as Ctrl-Z gives it to the shell, and the console takes it back redrawn.
          const edit = (text: string) =>
            editInEditor(text, options.env, restore, () => {
              reenter();
              if (stdin.isTTY) stdin.setRawMode(true);
            });
          const problem = (item: { socket: string; frame: { hold: number } }, text: string | undefined) =>
            dispatch?.({ type: 'held-problem', socket: item.socket, hold: item.frame.hold, text });
          return releaseHeld(state, how, { link, edit, problem, drafts });
        },
      },
    }),
    { stdin, stdout, exitOnCtrlC: false, patchConsole: false, maxFps: 20 },
  );

  // Back from Ctrl-Z (fg): the alternate screen again, raw mode, and a whole new frame.
  const onContinue = () => {
    reenter();
    if (stdin.isTTY) stdin.setRawMode(true);
    dispatch?.({ type: 'status', text: 'resumed' });
  };
  let exitCode = 0;
  const onSignal = (name: keyof typeof signalNumbers) => () => {
    exitCode = 128 + signalNumbers[name];
    instance.unmount();
  };
  const handlers = Object.fromEntries(Object.keys(signalNumbers).map((name) => [name, onSignal(name as keyof typeof signalNumbers)]));
  for (const [name, handler] of Object.entries(handlers)) process.on(name, handler);
  process.on('SIGCONT', onContinue);
  // A crash still gives the terminal back before the error is said.
  const onCrash = (error: unknown) => {
    restore();
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`mcp-spy ui: internal error: ${sanitize(message.split('\n')[0]!)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', onCrash);
  process.on('exit', restore);
  try {
    await instance.waitUntilExit();
  } finally {
    stop.abort();
    restore();
    files.close();
    for (const [name, handler] of Object.entries(handlers)) process.off(name, handler);
    process.off('SIGCONT', onContinue);
    process.off('uncaughtException', onCrash);
    process.off('exit', restore);
  }
  return exitCode;
}
