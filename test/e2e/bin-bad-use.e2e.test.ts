// Bad use is tested in-process through main(argv) (test/cli/bad-use-*.test.ts); this proves, once per
// command, that the built binary runs main and hands its one line and its exit status to the shell.
import { describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers/spy.js';

describe('the binary passes bad use on to the shell: one line on stderr, nothing on stdout, exit 2', () => {
  it.each([
    ['the stdio spy', ['--bogus', '--', 'cat'], "mcp-spy: unknown option '--bogus' (see mcp-spy --help)\n"],
    [
      'http',
      ['http', '--target', 'ftp://x/mcp'],
      'mcp-spy: bad --target "ftp://x/mcp": ftp: is not http: or https:; expected a URL such as http://127.0.0.1:3000/mcp\n',
    ],
    ['view', ['view', 'missing.jsonl'], 'mcp-spy: cannot read missing.jsonl: no such file\n'],
    ['stats', ['stats', 'missing.jsonl'], 'mcp-spy: cannot read missing.jsonl: no such file\n'],
    ['check', ['check', 'missing.jsonl'], 'mcp-spy: cannot read missing.jsonl: no such file\n'],
    [
      'report',
      ['report', 'a.jsonl', 'b.jsonl', 'c.jsonl'],
      'mcp-spy: report takes one recording, or two to compare: mcp-spy report before.jsonl after.jsonl\n',
    ],
    ['replay', ['replay', 'missing.jsonl'], 'mcp-spy: give the server command after -- or --target URL (one of them)\n'],
    ['mock', ['mock', 'missing.jsonl'], 'mcp-spy: cannot read missing.jsonl: no such file\n'],
    [
      'export otlp',
      ['export', 'otlp', 'missing.jsonl', '--endpoint', 'ftp://x'],
      'mcp-spy: bad --endpoint "ftp://x": OTLP/HTTP needs an http or https URL, not ftp:; expected a collector URL such as http://127.0.0.1:4318\n',
    ],
    ['export har', ['export', 'har', 'missing.jsonl'], 'mcp-spy: cannot read missing.jsonl: no such file\n'],
    ['import', ['import', 'missing.har'], 'mcp-spy: cannot read missing.har: no such file\n'],
    ['diff', ['diff', 'missing.jsonl'], 'mcp-spy: diff needs two recordings (mcp-spy diff before.jsonl after.jsonl), or one and a server command after --\n'],
    ['baseline', ['baseline', 'missing.jsonl'], 'mcp-spy: cannot read missing.jsonl: no such file\n'],
    ['the stdio spy, an empty --record', ['--record', '', '--', 'cat'], 'mcp-spy: --record needs a file name (--no-record writes none)\n'],
    ['http, an empty --log', ['http', '--target', 'http://127.0.0.1:9/mcp', '--log', ''], 'mcp-spy: --log needs a file name (--no-log writes none)\n'],
    ['the stdio spy, a missing --faults file', ['--faults', 'missing.yaml', '--', 'cat'], 'mcp-spy: cannot read --faults missing.yaml: no such file\n'],
    [
      'the stdio spy, a --capture it does not know',
      ['--capture', 'sometimes', '--', 'cat'],
      "mcp-spy: option '--capture <when>' argument 'sometimes' is invalid: expected one of pressed, always, never (see mcp-spy --help)\n",
    ],
    ['demo', ['demo', '--bogus'], "mcp-spy demo: unknown option '--bogus' (see mcp-spy demo --help)\n"],
  ])('%s', async (_name, args, line) => {
    const result = await runBin(args);
    expect(result.stderr).toBe(line);
    expect(result.text).toBe('');
    expect(result.code).toBe(2);
  });
});

describe('the binary words a --faults file that is not YAML in one whole line', () => {
  it('ends on where the mistake is, not on a colon that introduced an excerpt', async () => {
    const temp = tempDir();
    temp.file('bad.yaml', 'faults:\n  - when: [\n');
    const result = await runBin(['--faults', 'bad.yaml', '--', 'cat'], { cwd: temp.dir });
    expect(result.stderr).toMatch(/^mcp-spy: bad\.yaml: not YAML or JSON: .* at line \d+, column \d+\n$/);
    expect(result.code).toBe(2);
  });
});
