import { parseFilter } from '../review/filter-expression.js';
import { sessionsDirectory } from '../record/sessions-dir.js';
import { SpyError } from './errors.js';
import { wantsColor } from './options.js';
import { version } from './version.js';

export interface UiCommandOptions {
  filter?: string;
  color?: boolean;
}

/**
 * `mcp-spy ui [paths...]`: the console over the sessions directory, or the records and directories
 * named. Everything is checked before the console (Ink, React) is loaded.
 */
export async function runUi(paths: string[], options: UiCommandOptions): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new SpyError('ui needs a terminal (standard input and output are not one); to read a record without one: mcp-spy view FILE');
  }
  if (options.filter !== undefined) {
    const parsed = parseFilter(options.filter);
    if (!parsed.ok) throw new SpyError(`bad filter expression: ${parsed.message}`);
  }
  (await import('../ui/heap.js')).tuneHeapForConsole();
  const { pathKind } = await import('../ui/sources.js');
  for (const path of paths) if ((await pathKind(path)) === 'missing') throw new SpyError(`cannot read ${path}: no such file or directory`);
  const { runShell } = await loadOutsideCiMode(() => import('../ui/shell.js'));
  return runShell({
    paths: paths.length > 0 ? paths : [sessionsDirectory(process.env)],
    filter: options.filter,
    color: wantsColor(options.color, process.env, true),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    cwd: process.cwd(),
    version,
  });
}

/** The variables by which Ink decides, once as it loads, that it runs in CI and draws only its last frame. */
const ciVariables = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/**
 * Loads the console with Ink's CI mode off. The console runs only in a terminal, where a person
 * looks at it; `CI` set in that terminal's shell (a container, a build machine's login) would
 * otherwise leave the screen blank until the console ends.
 */
async function loadOutsideCiMode<T>(load: () => Promise<T>): Promise<T> {
  const saved = ciVariables.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return await load();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
