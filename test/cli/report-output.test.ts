// Where `report` writes: never over its recording under another name, not through a link planted
// where the default file goes, private as the record is, and one clear line when it cannot.
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-report-output-');
afterAll(() => temp.remove());

const ping = `${JSON.stringify({ v: 2, seq: 1, t: '2026-07-28T10:00:00.000Z', session: 's1', dir: 'c2s', kind: 'request', method: 'ping', id: 1, msg: { jsonrpc: '2.0', id: 1, method: 'ping' } })}\n`;

/** A recording in a directory of its own, so its default report (NAME.html) is fresh. */
function recording(name: string): { dir: string; record: string } {
  const dir = join(temp.dir, name);
  mkdirSync(dir);
  return { dir, record: temp.file(`${name}/${name}.jsonl`, ping) };
}

async function refused(args: string[], message: RegExp) {
  const result = await runMain(args);
  expect(result.code, args.join(' ')).toBe(2);
  expect(result.text).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
}

describe('report output', () => {
  it.each([
    ['a symbolic link', symlinkSync],
    ['a hard link', linkSync],
  ])('refuses -o naming its recording through %s, and leaves the recording whole', async (_, link) => {
    const { dir, record } = recording(`link-${link.name}`);
    const other = join(dir, 'report.html');
    link(record, other);
    await refused(['report', record, '-o', other], /would overwrite its recording/);
    await refused(['report', temp.file(`${basename(dir)}/before.jsonl`, ping), record, '-o', other], /would overwrite its recording/);
    expect(readFileSync(record, 'utf8')).toBe(ping);
  });

  it('does not follow a link planted where the default report goes', async () => {
    const { dir, record } = recording('planted');
    const target = temp.file('planted-target.txt', 'precious\n');
    symlinkSync(target, join(dir, 'planted.html'));
    await refused(['report', record], /cannot write the report .*planted\.html: it is a symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });

  it('writes through a link the user named with -o', async () => {
    const { dir, record } = recording('named-link');
    const target = temp.file('named-target.html', 'old\n');
    symlinkSync(target, join(dir, 'named.html'));
    expect((await runMain(['report', record, '-o', join(dir, 'named.html')])).code).toBe(0);
    expect(lstatSync(join(dir, 'named.html')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('replaces an existing report whole and makes it private (0600), as the record is', async () => {
    const { dir, record } = recording('existing');
    const out = temp.file('existing/existing.html', 'x'.repeat(1_000_000));
    chmodSync(out, 0o644);
    const result = await runMain(['report', record]);
    expect(result.text).toBe(`${out}\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, 'utf8')).toMatch(/<\/html>\n$/);
    expect(existsSync(join(dir, 'existing.html'))).toBe(true);
  });

  it('writes to standard output with -o -, and only the report', async () => {
    const { record } = recording('to-stdout');
    const result = await runMain(['report', record, '-o', '-']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.text).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/);
    expect(result.text).toContain('"method":"ping"');
  });

  const unwritable: [what: string, out: () => string, message: RegExp][] = [
    ['an empty -o', () => '', /-o needs a file name/],
    ['a directory', () => temp.dir, /cannot write the report .*: it is a directory$/m],
    ['a missing directory', () => join(temp.dir, 'nowhere', 'r.html'), /cannot write the report .*: its directory does not exist$/m],
  ];
  if (existsSync('/dev/full')) unwritable.push(['a full device', () => '/dev/full', /cannot write the report \/dev\/full: no space left on the device$/m]);
  it.each(unwritable)('says in one line that it cannot write to %s', async (_, out, message) => {
    const { record } = recording(`bad-${_.replace(/\W/g, '-')}`);
    await refused(['report', record, '-o', out()], message);
  });
});
