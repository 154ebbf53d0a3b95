import { chmodSync, chownSync, lchownSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, request } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

// Named paths in a shared directory (sticky and writable by all, as /tmp), on a machine that may
// not enforce fs.protected_symlinks. Root plays the user here, so the spy's own checks are what
// holds: root passes every permission check of the kernel.
const isRoot = process.getuid?.() === 0;
const other = 65534;

/** A sticky directory writable by all, a file of root's to protect in another one. */
function sharedDirectory() {
  const shared = tempDir().dir;
  chmodSync(shared, 0o1777);
  const victim = join(tempDir().dir, 'victim.txt');
  writeFileSync(victim, 'keep me\n', { mode: 0o644 });
  chmodSync(victim, 0o644);
  return { shared, victim };
}

describe.skipIf(!isRoot)('a named path in a shared directory', () => {
  it('a link planted there by another user is not followed: one line, exit 2, its target untouched', async () => {
    const { shared, victim } = sharedDirectory();
    const link = join(shared, 'wire.jsonl');
    symlinkSync(victim, link);
    lchownSync(link, other, other);
    const result = await runBin(['-q', '--record', link, '--no-log', '--', 'cat'], { input: request(1) });
    expect(result.stderr).toBe(
      `mcp-spy: cannot write record ${link}: it is a link of another user (uid ${other}) in a shared directory (sticky and writable by all), which the spy does not follow\n`,
    );
    expect(result.code).toBe(2);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
  });

  it.each([
    ['report', (record: string, out: string) => ['report', record, '-o', out], 'the report '],
    ['export har', (record: string, out: string) => ['export', 'har', record, '-o', out], ''],
    ['import', (record: string, out: string) => ['import', record, '-o', out], ''],
  ])('%s -o: a link planted there by another user is not followed either', async (_name, args, what) => {
    const { shared, victim } = sharedDirectory();
    const record = join(tempDir().dir, 'wire.jsonl');
    expect((await runBin(['-q', '--record', record, '--no-log', '--', 'cat'], { input: request(1) })).code).toBe(0);
    const input = _name === 'import' ? join(tempDir().dir, 'in.har') : record;
    if (_name === 'import') expect((await runBin(['export', 'har', record, '-o', input])).code).toBe(0);
    const link = join(shared, 'out');
    symlinkSync(victim, link);
    lchownSync(link, other, other);
    const result = await runBin(args(input, link));
    expect(result.stderr).toBe(
      `mcp-spy: cannot write ${what}${link}: it is a link of another user (uid ${other}) in a shared directory (sticky and writable by all), which the spy does not follow\n`,
    );
    expect(result.code).toBe(2);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });

  it("a link of the user's own there is followed", async () => {
    const { shared } = sharedDirectory();
    const target = join(tempDir().dir, 'real.jsonl');
    symlinkSync(target, join(shared, 'mine.jsonl'));
    const result = await runBin(['-q', '--record', join(shared, 'mine.jsonl'), '--no-log', '--', 'cat'], { input: request(1) });
    expect(result.code).toBe(0);
    expect(readRecord(target).some((entry) => entry.kind === 'request')).toBe(true);
  });

  it('a readable file of another user gets no traffic without --allow-readable', async () => {
    const { shared } = sharedDirectory();
    const theirs = join(shared, 'wire.log');
    writeFileSync(theirs, 'their notes\n', { mode: 0o644 });
    chownSync(theirs, other, other);
    const result = await runBin(['-q', '--no-record', '--log', theirs, '--', 'cat'], { input: request(1) });
    expect(result.stderr).toBe(
      `mcp-spy: cannot write log ${theirs}: it belongs to another user (uid ${other}), who can read what is written to it; --allow-readable writes to it all the same\n`,
    );
    expect(result.code).toBe(2);
    expect(readFileSync(theirs, 'utf8')).toBe('their notes\n');
  });

  it('with --allow-readable it gets the traffic, and its mode is left as its owner set it', async () => {
    const { shared } = sharedDirectory();
    const theirs = join(shared, 'wire.log');
    writeFileSync(theirs, 'their notes\n', { mode: 0o644 });
    chownSync(theirs, other, other);
    const result = await runBin(['-q', '--no-record', '--log', theirs, '--allow-readable', '--', 'cat'], { input: request(1) });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(theirs, 'utf8')).toMatch(/^their notes\n.*-> request +ping #1/s);
    expect(statSync(theirs).mode & 0o777).toBe(0o644);
    expect(statSync(theirs).uid).toBe(other);
  });
});
