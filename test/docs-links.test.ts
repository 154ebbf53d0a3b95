import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug);
    seen.set(slug, (count ?? -1) + 1);
    anchors.add(count === undefined ? slug : `${slug}-${count + 1}`);
  }
  return anchors;
}

/** Every relative link of a page: where it points, and the anchor if any. */
function linksOf(page: string): { link: string; target: string; anchor?: string }[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, link]) => link!)
    .filter((link) => !/^[a-z]+:/.test(link))
    .map((link) => {
      const [path, anchor] = link.split('#');
      return { link, target: path ? normalize(join(dirname(page), path)) : page, anchor };
    });
}

describe('the links of the README and docs/', () => {
  it.each(pages)('%s: every relative link names a file there is, and a heading it has', (page) => {
    const broken = linksOf(page).filter(({ target, anchor }) => !existsSync(join(root, target)) || (anchor !== undefined && !anchorsOf(target).has(anchor)));
    expect(broken.map(({ link }) => link)).toEqual([]);
    expect(linksOf(page).length).toBeGreaterThan(0);
  });
});

/** The README's sections by their `## ` headings: the title, and the text up to the next one. */
function sectionsOf(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of text
    .replace(/```[\s\S]*?```/g, '')
    .split(/^## /m)
    .slice(1)) {
    const [title, ...rest] = part.split('\n');
    sections.set(title!.trim(), rest.join('\n').replace(/^\n+/, ''));
  }
  return sections;
}

// What a user needs first stays in the README; the references are in docs/. It grew from 318 lines
// to 920 once, a paragraph at a time: the bound holds it.
describe('the README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('is at most 350 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(350);
  });

  it('starts with the quick start: one command that installs and runs the demo, one that runs the tests', () => {
    const quickStart = sectionsOf(readme).get('Quick start')!;
    const commands = quickStart
      .split('\n\n')
      .find((block) => block.startsWith('    '))!
      .split('\n')
      .map((line) => line.trim().split(/\s+#/)[0]!.trim());
    expect(commands).toEqual(['npm ci && npx mcp-spy demo', 'npm test']);
    expect([...sectionsOf(readme).keys()][0]).toBe('Quick start');
  });

  it('keeps "Break it on purpose" short, pointing to docs/faults.md', () => {
    const section = sectionsOf(readme).get('Break it on purpose')!;
    expect(section).toContain('](docs/faults.md)');
    expect(section.trim().split('\n').length).toBeLessThanOrEqual(35);
  });

  it('links every page of docs/', () => {
    const linked = new Set(linksOf('README.md').map(({ target }) => target));
    expect(pages.filter((page) => page !== 'README.md' && !linked.has(normalize(page)))).toEqual([]);
  });
});
