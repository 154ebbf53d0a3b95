// A real terminal for the console's tests: tmux on a private socket, keys sent, the screen read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

export interface Terminal {
  /** The screen as text, one line per row; with `escapes`, its colours and attributes as SGR sequences. */
  screen(escapes?: boolean): string;
  /** Sends keys as tmux names them (`Enter`, `Escape`, `Tab`, `C-u`) or literal text (`literal`). */
  keys(...keys: string[]): void;
  literal(text: string): void;
  /** Waits until the screen matches; says what it showed when it never does. */
  shows(pattern: RegExp, timeout?: number): Promise<string>;
  /** Resizes the terminal, as a person dragging its window does. */
  resize(width: number, height: number): void;
  /** A tmux format of the pane, e.g. `#{alternate_on}`. */
  pane(format: string): string;
  /** The newest paste buffer: what a program put on the clipboard with OSC 52 lands there. */
  clipboard(): string;
  kill(): void;
}

/** Starts `command` (a shell line) in a new detached tmux session of the given size, on a server and socket of its own. */
export function startTerminal(command: string, size: { width: number; height: number }, env: NodeJS.ProcessEnv = {}): Terminal {
  // A server of its own, on a socket in a directory of its own, both gone when the test ends.
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-tmux-'));
  const socket = join(dir, 'socket');
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  tmux('new-session', '-d', '-x', String(size.width), '-y', String(size.height), command);
  // Programs in the pane may set the clipboard (OSC 52), as in a terminal that allows it; it becomes a paste buffer.
  tmux('set-option', '-g', 'set-clipboard', 'on');
  const screen = (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', '0');
  return {
    screen,
    keys: (...keys) => void tmux('send-keys', '-t', '0', ...keys),
    literal: (text) => void tmux('send-keys', '-t', '0', '-l', text),
    async shows(pattern, timeout = 30_000) {
      let last = '';
      try {
        await vi.waitFor(
          () => {
            last = screen();
            if (!pattern.test(last)) throw new Error('not yet');
          },
          { timeout, interval: 50 },
        );
      } catch {
        throw new Error(`the screen never showed ${pattern}; it showed:\n${last}`);
      }
      return last;
    },
    resize: (width, height) => void tmux('resize-window', '-t', '0', '-x', String(width), '-y', String(height)),
    pane: (format) => tmux('display-message', '-p', '-t', '0', format).trim(),
    clipboard: () => {
      try {
        return tmux('show-buffer');
      } catch {
        // No buffer yet: nothing was copied.
        return '';
      }
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
