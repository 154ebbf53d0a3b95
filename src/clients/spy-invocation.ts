import { fileURLToPath } from 'node:url';

/** How a client starts the spy: by absolute paths, since clients start servers with a bare PATH. */
export interface SpyProgram {
  /** The node binary running now. */
  node: string;
  /** This package's bin/mcp-spy.js. */
  bin: string;
}

export function spyProgram(): SpyProgram {
  return { node: process.execPath, bin: fileURLToPath(new URL('../../bin/mcp-spy.js', import.meta.url)) };
}

/** Who a wrapped server is: the client whose config starts it and the entry's name there. */
export interface WrapLabel {
  client: string;
  name: string;
}

/** The command and args of a wrapped entry: the spy, its label, `--`, then the entry's own command line. */
export function wrappedCommand(spy: SpyProgram, label: WrapLabel, command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: spy.node, args: [spy.bin, '--client', label.client, '--name', label.name, '--', command, ...args] };
}

/** The last part of a path, by either separator: configs name Windows and POSIX paths alike. */
function baseName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

const spyNames = new Set(['mcp-spy', 'mcp-spy.js', 'mcp-spy.cmd', 'mcp-spy.ps1']);

/** A word that names the spy: its bin by path, the linked command, or the package as npx takes it (`mcp-spy@1.2.0`). */
function namesSpy(word: string): boolean {
  return spyNames.has(baseName(word)) || /^mcp-spy@/.test(word);
}

/**
 * The entry's own command line, when its command runs the spy (by `wrap` or by hand: `node
 * .../mcp-spy.js [options] -- server ...`, `mcp-spy -- ...`, `npx -y mcp-spy -- ...`); else undefined.
 * Only the words before the first `--` are the spy's: what follows is the server's, `--` and all.
 */
export function spiedCommand(command: string, args: readonly string[]): { command: string; args: string[] } | undefined {
  const split = args.indexOf('--');
  if (split < 0 || split === args.length - 1) return undefined;
  const spyPart = [command, ...args.slice(0, split)];
  if (!spyPart.some(namesSpy)) return undefined;
  const [serverCommand, ...serverArgs] = args.slice(split + 1) as [string, ...string[]];
  return { command: serverCommand, args: serverArgs };
}
