import { InvalidArgumentError } from 'commander';
import { formatSize } from '../wire/framing/limits.js';
import { parseListen as parseListenAddress, type ListenAddress } from '../transports/http/target.js';

const units = new Map([
  ['', 1],
  ['b', 1],
  ['k', 1024],
  ['kb', 1024],
  ['kib', 1024],
  ['m', 1024 ** 2],
  ['mb', 1024 ** 2],
  ['mib', 1024 ** 2],
  ['g', 1024 ** 3],
  ['gb', 1024 ** 3],
  ['gib', 1024 ** 3],
]);

/**
 * The parser of a size option (16MiB, 64M, 512k, 1048576) within bounds: a size outside them is
 * refused with the bounds, never clamped, since it is most likely a typo or a forgotten unit.
 */
export function sizeParser(bounds: { min: number; max: number }): (value: string) => number {
  return (value) => {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
    const factor = match ? units.get(match[2]!.toLowerCase()) : undefined;
    if (!match || factor === undefined) throw new InvalidArgumentError('expected a size such as 16MiB, 512k or 1048576');
    const bytes = Math.floor(Number(match[1]) * factor);
    if (bytes < bounds.min || bytes > bounds.max) {
      throw new InvalidArgumentError(`the size must be from ${formatSize(bounds.min)} to ${formatSize(bounds.max)}`);
    }
    return bytes;
  };
}

const durationUnits: Record<string, number> = { '': 1, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Reads a duration such as 5000, 500ms, 5s, 1.5s, 2m or 1h into ms. */
export function readDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const factor = match ? durationUnits[match[2]!.toLowerCase()] : undefined;
  if (!match || factor === undefined) throw new InvalidArgumentError('expected a duration such as 5000, 500ms, 5s or 2m');
  return Number(match[1]) * factor;
}

/** Colour on stderr: --no-color and NO_COLOR win, then FORCE_COLOR, then whether stderr is a terminal. */
export function wantsColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}

/**
 * Splits argv at the first `--`: what comes before is ours, what comes after is the server's
 * command line, untouched (so a server named like one of our commands still works).
 */
export function splitServerCommand(argv: string[]): { own: string[]; server: string[] | undefined } {
  const at = argv.indexOf('--');
  if (at === -1) return { own: argv, server: undefined };
  return { own: argv.slice(0, at), server: argv.slice(at + 1) };
}

/** `-n, --lines`: a count of entries, 0 or more. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a number of entries, 0 or more');
  return Number(value);
}

/** `--listen host:port`, checked as commander reads it. */
export function parseListen(value: string): ListenAddress {
  const parsed = parseListenAddress(value.trim());
  if (!parsed.ok) throw new InvalidArgumentError(`${parsed.reason} (port 0 picks a free one)`);
  return parsed.address;
}
