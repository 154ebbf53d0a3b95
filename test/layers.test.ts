import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './helpers/spy.js';

/** DESIGN.md, Layout: a folder imports only folders listed above it. */
const order = ['protocol', 'wire', 'record', 'render', 'transports', 'export', 'session', 'review', 'check', 'replay', 'drift', 'report', 'cli'];
/** Pure layers: no terminal colour, no process spawning, no file system. */
const forbidden: Record<string, string[]> = {
  protocol: ['chalk', 'execa', 'node:fs', 'fs'],
  wire: ['chalk', 'execa', 'node:fs', 'fs'],
  render: ['execa', 'node:fs', 'fs'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const src = join(root, 'src');
const files = sourceFiles(src).map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }));

describe('layers', () => {
  it('finds the source', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.filter(({ file }) => file.includes('/')).map(({ file, text }) => [file, text]))('%s imports only layers above it', (file, text) => {
    const layer = file.split('/')[0]!;
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
    for (const specifier of imports) {
      if (specifier.startsWith('../')) {
        const target = specifier.split('/')[1]!;
        if (order.includes(target) && order.includes(layer)) {
          expect(order.indexOf(target), `${file} imports ${specifier}`).toBeLessThanOrEqual(order.indexOf(layer));
        }
      }
      expect(forbidden[layer] ?? [], `${file} imports ${specifier}`).not.toContain(specifier);
    }
    if (layer !== 'render' && layer !== 'cli') expect(imports, `${file}: chalk lives in render/`).not.toContain('chalk');
  });
});
