// The review commands' output into pipes: all of it to a reader that reads at its pace, and a quiet
// stop (exit 0, nothing on stderr) when the reader leaves early (`| head`).
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, node, tempDir } from '../helpers/spy.js';

const temp = tempDir();
afterAll(() => temp.remove());

const frame = (arrow: string, message: object) => `${arrow} ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const pairs = 5000;
const capture = temp.file(
  'big.log',
  Array.from(
    { length: pairs },
    (_, i) => frame('->', { id: i + 1, method: 'ping' }) + frame('<-', { id: i + 1, result: { text: `answer ${i} `.repeat(30) } }),
  ).join(''),
);

/** Runs `mcp-spy ARGS | READER` in a shell: the spy's exit status and stderr, and what the reader printed. */
function piped(args: string, reader: string) {
  const script = `"${node}" "${bin}" ${args} 2>"${temp.dir}/err"; echo $? >"${temp.dir}/code"`;
  const result = spawnSync('sh', ['-c', `(${script}) | ${reader}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return {
    out: result.stdout,
    code: Number(spawnSync('cat', [`${temp.dir}/code`], { encoding: 'utf8' }).stdout),
    stderr: spawnSync('cat', [`${temp.dir}/err`], { encoding: 'utf8' }).stdout,
  };
}

describe('review output into a pipe', () => {
  it('is whole when the reader takes it in pieces: the exit waits for what stdout still holds', () => {
    for (let run = 0; run < 3; run++) {
      const { out, code } = piped(`view "${capture}" --format jsonl`, 'cat | wc -l');
      expect(Number(out.trim())).toBe(2 * pairs);
      expect(code).toBe(0);
    }
  });

  it.each(['--format jsonl', '--format json', ''])('view %s | head stops quietly, exit 0', (format) => {
    const { out, code, stderr } = piped(`view "${capture}" ${format}`, 'head -c 100');
    expect(out.length).toBe(100);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
