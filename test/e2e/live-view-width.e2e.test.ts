// The live view on a narrow terminal (80 columns and less), against server-everything driven by a
// real SDK client: every line fits the width measured in screen columns (wide characters and emoji
// take two), names and URIs are cut before numbers, and lists name what fits.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/render/display-width.js';
import { bin, everythingServer, fixture, framesOf, node, readEntries, tempDir } from '../helpers/spy.js';

/** The spy's live view on a terminal of `columns` (through `script`), for the `wide` scenario: its frame lines, and the record. */
function liveOn(columns: number) {
  const { dir, remove } = tempDir();
  const client = `${node} ${fixture('clients', 'everything-client.js')} -- ${node} ${bin} --record r.jsonl --no-log -- ${node} ${everythingServer} stdio`;
  const result = spawnSync('script', ['-qec', `stty cols ${columns}; ${client} > /dev/null`, '/dev/null'], {
    cwd: dir,
    env: { ...process.env, FORCE_COLOR: '0', SCENARIO: 'wide', CLIENT_STDERR: 'inherit' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = result.stdout.split(/\r?\n/).filter((text) => /^\d\d:\d\d:\d\d\.\d{3} /.test(text));
  const entries = readEntries(join(dir, 'r.jsonl'));
  remove();
  return { lines, entries };
}

describe.each([80, 60])('the live view at %i columns', (columns) => {
  let run: ReturnType<typeof liveOn>;
  beforeAll(() => {
    run = liveOn(columns);
  });

  it('fits every line in the width, numbers whole, names cut with "…"', () => {
    const { lines, entries } = run;
    for (const text of lines) expect(displayWidth(text), text).toBeLessThan(columns);
    const frames = framesOf(entries);
    const frameLines = lines.filter((text) => / (->|<-) /.test(text));
    expect(frameLines).toHaveLength(frames.length);
    // Each frame's id and latency are on its line, whole: a number is never cut or wrapped.
    frames.forEach((frame, index) => {
      if ('id' in frame && frame.id !== undefined) expect(frameLines[index]).toMatch(new RegExp(` #${String(frame.id)}( |$)`));
      if (typeof frame.latencyMs === 'number') expect(frameLines[index]).toMatch(new RegExp(` ${String(frame.latencyMs).replace('.', '\\.')}ms( |$)`));
    });
    // The event lines too: the command is cut, the pid kept.
    const spawn = lines.find((text) => text.includes(' spawn '))!;
    expect(spawn).toMatch(/… pid=\d+/);
    const read = frameLines.find((text) => text.includes('resources/read #'))!;
    expect(read).toContain('…');
  });
});

it('at 80 columns, names what fits of a list, not only counts, and cuts wide characters whole', () => {
  const { lines } = liveOn(80);
  const listed = lines.find((text) => / resources\/list #\d+ .*\d+ resources/.test(text))!;
  // A name, or the start of one, not "7 resources: +7 more".
  expect(listed).toMatch(/\d+ resources: demo:\/\//);
  expect(listed).not.toMatch(/: \+\d+ more/);
  const prompts = lines.find((text) => / prompts\/list #\d+ /.test(text))!;
  expect(prompts).toMatch(/\d+ prompts: simpl/);
  // Each of these characters takes two columns: counted as one, the "…" would land past the edge.
  const wide = lines.find((text) => text.includes('"Echo: 幅の広い文字') && text.includes('<- response'))!;
  expect(wide.endsWith('…')).toBe(true);
  expect(displayWidth(wide)).toBeLessThan(80);
});
