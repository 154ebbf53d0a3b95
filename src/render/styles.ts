import { Chalk, type ChalkInstance } from 'chalk';
import { lookup } from '../protocol/own-table.js';
import type { EventKind } from '../record/schema.js';
import type { FrameKind } from '../wire/classify/kinds.js';

export type Paint = (text: string) => string;

/** How each kind of entry is labelled and painted. Adding a kind fails to compile until it is here. */
export const kindStyles = {
  request: { label: 'request', paint: (c) => c.cyan },
  notification: { label: 'notify', paint: (c) => c.blue },
  response: { label: 'response', paint: (c) => c.green },
  'tool-error': { label: 'tool-error', paint: (c) => c.yellow },
  'protocol-error': { label: 'proto-error', paint: (c) => c.red },
  invalid: { label: 'INVALID', paint: (c) => c.bgRed.white },
  spawn: { label: 'spawn', paint: (c) => c.magenta },
  exit: { label: 'exit', paint: (c) => c.magenta },
  stderr: { label: 'stderr', paint: (c) => c.gray },
  gap: { label: 'GAP', paint: (c) => c.bgYellow.black },
  unanswered: { label: 'unanswered', paint: (c) => c.red },
  http: { label: 'http', paint: (c) => c.magenta },
  note: { label: 'note', paint: (c) => c.gray },
  fault: { label: 'FAULT', paint: (c) => c.bgMagenta.white },
  intercept: { label: 'INTERCEPT', paint: (c) => c.bgBlue.white },
} satisfies Record<FrameKind | EventKind, { label: string; paint: (c: ChalkInstance) => ChalkInstance }>;

export const labelWidth = Math.max(...Object.values(kindStyles).map((style) => style.label.length));

export const arrows = { c2s: '->', s2c: '<-', none: '**' } as const;

const unpainted: Paint = (text) => text;

/**
 * Colour on or off; the caller decides from the TTY, NO_COLOR, FORCE_COLOR and --no-color. Without
 * colour the paints give the text back as it is (wire.log renders every frame: no styling machinery).
 */
export function createPalette(color: boolean) {
  const chalk = new Chalk({ level: color ? 1 : 0 });
  if (!color) return { chalk, kind: (_kind: string): Paint => unpainted, dim: unpainted, bold: unpainted, warn: unpainted };
  return {
    chalk,
    kind: (kind: string): Paint => {
      const style = lookup<{ paint: (c: ChalkInstance) => ChalkInstance }>(kindStyles, kind);
      return style ? style.paint(chalk) : chalk.white;
    },
    dim: chalk.dim as Paint,
    bold: chalk.bold as Paint,
    warn: chalk.yellow as Paint,
  };
}

export type Palette = ReturnType<typeof createPalette>;
