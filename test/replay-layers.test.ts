// src/replay/ sits below protocol/, wire/ and record/ (DESIGN.md, Layout): it imports nothing else of
// ours, and neither chalk nor the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './replay-helpers.js';

const folder = join(root, 'src/replay');
const allowed = ['../protocol/', '../wire/', '../record/', './'];

describe('src/replay imports', () => {
  const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
  it.each(files)('%s imports only folders above it', (name) => {
    const source = readFileSync(join(folder, name), 'utf8');
    const specifiers = [...source.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]!);
    const ours = specifiers.filter((specifier) => specifier.startsWith('.'));
    expect(ours.filter((specifier) => !allowed.some((prefix) => specifier.startsWith(prefix)))).toEqual([]);
    expect(specifiers).not.toContain('chalk');
  });
});
