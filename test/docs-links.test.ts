import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
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
