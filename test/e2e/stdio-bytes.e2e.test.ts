import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { awkwardLines, framesOf, readEntries, runBin, tempDir } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the stdio spy forwards bytes untouched', () => {
  it('passes CRLF, blank lines, bytes that are not UTF-8 and a last line without newline, and records them', async () => {
    const dir = tempDir().dir;
    const input = awkwardLines;
    const result = await runBin(['--record', 'r.jsonl', '--log', 'r.log', '--', 'cat'], { input, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(input)).toBe(true);
    const seen = framesOf(readEntries(join(dir, 'r.jsonl'))).filter((entry) => entry.dir === 'c2s');
    expect(seen.map((entry) => [entry.kind, entry.eol ?? '\n'])).toEqual([
      ['request', '\r\n'],
      ['invalid', '\n'],
      ['notification', '\n'],
      ['request', ''],
    ]);
    expect(seen[1]).toMatchObject({ rawBase64: Buffer.from([0xff, 0xfe, 0x41]).toString('base64'), notes: ['not-utf8'] });
    expect(frameText(seen[0]!)).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  });

  it('forwards a 64 MB line whole and records it in part, without stalling', async () => {
    const dir = tempDir().dir;
    const big = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"big","params":{"data":"'),
      Buffer.alloc(64 * 1024 * 1024, 0x61),
      Buffer.from('"}}\n'),
    ]);
    const input = Buffer.concat([big, Buffer.from('{"jsonrpc":"2.0","id":2,"method":"after"}\n')]);
    // Finishing may take as long as it needs: the observer, at a low priority, may be seconds behind
    // 64 MB on a busy machine, and the default drain timeout (2 s) would make the rest a gap.
    const result = await runBin(['--record', 'r.jsonl', '--no-log', '-q', '--drain-timeout', '600s', '--', 'cat'], { input, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBe(input.length);
    expect(sha(result.stdout)).toBe(sha(input));
    const seen = framesOf(readEntries(join(dir, 'r.jsonl'))).filter((entry) => entry.dir === 'c2s');
    // Its envelope is read from the part kept: still a request, with its id and method.
    expect(seen[0]).toMatchObject({ kind: 'request', id: 1, method: 'big', truncated: true, bytes: big.length - 1, notes: ['frame-too-large'] });
    expect(frameText(seen[0]!)!.length).toBe(16 * 1024 * 1024);
    expect(seen[1]).toMatchObject({ kind: 'request', method: 'after' });
  });

  it('parses frames up to --max-frame', async () => {
    const dir = tempDir().dir;
    const line = `{"jsonrpc":"2.0","id":1,"method":"x","params":{"d":"${'b'.repeat(2000)}"}}\n`;
    await runBin(['--record', 'r.jsonl', '--no-log', '-q', '--max-frame', '1k', '--', 'cat'], { input: line, cwd: dir });
    expect(framesOf(readEntries(join(dir, 'r.jsonl')))[0]).toMatchObject({ truncated: true, notes: ['frame-too-large'] });
    const dir2 = tempDir().dir;
    await runBin(['--record', 'r.jsonl', '--no-log', '-q', '--max-frame', '4KiB', '--', 'cat'], { input: line, cwd: dir2 });
    expect(framesOf(readEntries(join(dir2, 'r.jsonl')))[0]).toMatchObject({ kind: 'request', method: 'x' });
  });
});
