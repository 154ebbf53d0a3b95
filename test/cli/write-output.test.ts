import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOutput } from '../../src/cli/write-output.js';
import { tempDir } from '../helpers/spy.js';

const place = tempDir();
afterAll(() => place.remove());

describe('the -o file of export, import and diff', () => {
  it('is created with mode 0600, as the record is: a HAR or an imported record holds the traffic', () => {
    const path = join(place.dir, 'session.har');
    writeOutput(path, '{}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('is readable by others when asked (a baseline, made to be committed and reviewed)', () => {
    const path = join(place.dir, 'mcp-tools.lock.json');
    writeOutput(path, '{}\n', { mode: 0o644 });
    expect(statSync(path).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('refuses to be the file it reads', () => {
    const path = place.file('wire.jsonl', '{}\n');
    expect(() => writeOutput(path, 'x', { inputs: [path] })).toThrow(/is the file being read/);
  });
});
