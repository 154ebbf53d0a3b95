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
  const { runShell } = await import('../ui/shell.js');
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
