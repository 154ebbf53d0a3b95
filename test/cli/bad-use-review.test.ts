// Bad use of the commands that read a recording (view, stats, check, report, import, diff) and the help,
// run in-process through main(argv): one line on stderr, exit 2, nothing on stdout.
// test/e2e/bin-bad-use.e2e.test.ts proves the binary passes that line and status on to the shell.
import { mkdirSync, readFileSync, symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../src/check/rules.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-bad-use-');
afterAll(() => temp.remove());

/** A record line: a ping of `session` at `time` (UTC). */
const line = (seq: number, time: string, session = 's1') =>
  `${JSON.stringify({ v: 1, seq, t: `2026-07-28T${time}Z`, session, dir: 'c2s', kind: 'request', method: 'ping', id: seq, raw: `{"jsonrpc":"2.0","id":${seq},"method":"ping"}` })}\n`;
const ping = line(1, '10:00:00.000');

describe('files that cannot be read: one clear line each, exit 2', () => {
  const cases: [string, () => string, RegExp][] = [
    ['a missing file', () => join(temp.dir, 'nothing.jsonl'), /^mcp-spy: cannot read .*nothing\.jsonl: no such file\n$/],
    [
      'a directory',
      () => {
        const dir = join(temp.dir, 'a-dir');
        mkdirSync(dir, { recursive: true });
        return dir;
      },
      /^mcp-spy: cannot read .*a-dir: is a directory\n$/,
    ],
    [
      'an unknown format',
      () => temp.file('notes.txt', 'hello\nworld\n'),
      /^mcp-spy: .*notes\.txt: unknown format \(line 1\): expected an mcp-spy record \(wire\.jsonl\) or a "-> \{json\}" \/ "<- \{json\}" capture\n$/,
    ],
    [
      'a human log',
      () => temp.file('wire.log', '20:46:23.515 -> request     initialize #0\n'),
      /^mcp-spy: .*wire\.log is a human log \(wire\.log\), which cannot be read back; use the record written beside it \(wire\.jsonl\)\n$/,
    ],
    [
      'a newer record version',
      () =>
        temp.file(
          'future.jsonl',
          '{"v":1,"seq":1,"t":"2026-07-28T10:00:00.000Z","kind":"spawn"}\n{"v":99,"seq":2,"t":"2026-07-28T10:00:01.000Z","kind":"spawn"}\n',
        ),
      /^mcp-spy: .*future\.jsonl:2: record version 99 is newer than this mcp-spy reads \(2\); upgrade mcp-spy\n$/,
    ],
  ];
  for (const [what, make, message] of cases) {
    it(`${what}`, async () => {
      const path = make();
      for (const command of ['view', 'stats', 'check']) {
        const result = await runMain([command, path]);
        expect(result.stderr, command).toMatch(message);
        expect(result.code, command).toBe(2);
      }
    });
  }

  it('stops at an unreadable line of a capture with --strict', async () => {
    const capture = [
      '-> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"mcp"}}}',
      '<- {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"found"}],"isError":true}}',
      'this line is not part of the capture',
      '-> {"jsonrpc":"2.0","id":2,"method":"ping"}',
    ].join('\n');
    const file = temp.file('capture.log', `${capture}\r\n`);
    const result = await runMain(['view', file, '--strict']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`mcp-spy: ${file}:3: not a "-> {json}" or "<- {json}" line\n`);
  });

  it('a bad filter expression', async () => {
    const record = temp.file('ok.jsonl', '{"v":1,"seq":1,"t":"2026-07-28T10:00:00.000Z","kind":"spawn"}\n');
    const expectations: [string, string][] = [
      ['latency >', "mcp-spy: bad filter expression: expected a value after '>' at column 10\n"],
      [
        'speed > 5',
        "mcp-spy: bad filter expression: unknown field 'speed' (fields: kind, dir, method, tool, prompt, uri, id, session, seq, latency, code, error, rev, bytes, time, note, text) at column 1\n",
      ],
      ['(tool = "a"', 'mcp-spy: bad filter expression: expected ")" at column 12\n'],
      ['tool = "a', 'mcp-spy: bad filter expression: unterminated string at column 8\n'],
    ];
    for (const [expression, line] of expectations) {
      const result = await runMain(['view', record, '--filter', expression]);
      expect(result.stderr, expression).toBe(line);
      expect(result.code, expression).toBe(2);
    }
  });
});

describe('view: times, -n, sessions, --follow', () => {
  // Four pings, one each side of 06:46 UTC, in two sessions.
  const record = temp.file('pings.jsonl', line(1, '06:45:59.000') + line(2, '06:46:00.000') + line(3, '06:46:30.500', 's2') + line(4, '06:47:00.000', 's2'));

  it.each([
    ['--since', '25:00'],
    ['--since', '14:61'],
    ['--until', '2026-13-01'],
    ['--since', '2026-02-30'],
  ])('%s %s is one line and exit 2', async (option, value) => {
    const result = await runMain(['view', record, option, value]);
    expect(result.stderr).toBe(`mcp-spy: ${option} ${value}: expected a time such as 14:05, 14:05:30.250 or 2026-07-28T14:05:00Z, in UTC\n`);
    expect(result.code).toBe(2);
    expect(result.text).toBe('');
  });

  it('a time in a filter expression that is no time is a bad expression', async () => {
    const result = await runMain(['view', record, '--filter', 'time >= "25:00"']);
    expect(result.stderr).toMatch(/^mcp-spy: bad filter expression: time >= 25:00: expected a time .* in UTC at column 9\n$/);
    expect(result.code).toBe(2);
  });

  it('-n takes a count', async () => {
    expect((await runMain(['view', record, '-n', 'two'])).code).toBe(2);
  });

  it('names the sessions a record has when --session names none of them', async () => {
    const result = await runMain(['view', record, '--session', 'nope']);
    expect(result.stderr).toBe(`mcp-spy: no session nope in ${record}; its sessions: s1, s2\n`);
    expect(result.code).toBe(2);
  });

  it('refuses --follow with --format json, whose array would never close', async () => {
    // Without the refusal it would follow for ever: the test would time out.
    const result = await runMain(['view', record, '--follow', '--format', 'json']);
    expect(result.stderr).toBe('mcp-spy: --follow cannot end a JSON array: use --format jsonl to follow as JSON\n');
    expect(result.code).toBe(2);
  });
});

describe('check: bad use', () => {
  const byId = (id: string) => rules.find((rule) => rule.id === id)!;
  const broken = temp.file('broken.log', `${byId('duplicate-id').bad}\n`);

  it('exits 2 on bad use, with one line', async () => {
    for (const args of [
      ['check', broken, '--rule', 'no-such-rule=off'],
      ['check', broken, '--rule', 'duplicate-id=loud'],
      ['check', broken, '--format', 'xml'],
      ['check'],
    ]) {
      const result = await runMain(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(/^mcp-spy/);
    }
  });
});

describe('report and import: bad use', () => {
  it('report refuses bad use with one line and status 2', async () => {
    const record = temp.file('small.jsonl', ping);
    for (const [args, message] of [
      [['report', 'a.jsonl', 'b.jsonl', 'c.jsonl'], /one recording, or two to compare/],
      [['report', join(temp.dir, 'missing.jsonl')], /cannot read .*missing\.jsonl/],
      [['report', '-'], /needs a file to write: -o/],
      [['report', record, '-o', record], /would overwrite its recording/],
      [['report', record, '--max-frames', '0'], /1 or more/],
      [['report', record, '--ignore', '$.result.id'], /--ignore leaves paths out of comparing two recordings/],
      [['report', record, '-o', '-', '--open'], /--open needs the report in a file/],
    ] as const) {
      const result = await runMain([...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
  });

  it.each([
    ['{"not": "har"}', /is not a HAR file: no "log" object/],
    ['not json', /is not a HAR file: not JSON/],
    [
      '{"v":2,"seq":1,"t":"2026-01-01T00:00:00.000Z","kind":"spawn"}\n{"v":2,"seq":2,"t":"2026-01-01T00:00:00.000Z","kind":"exit"}\n',
      /is an mcp-spy record, not a HAR: view, check, replay and export read it as it is\n$/,
    ],
  ])('import refuses %s in one line', async (text, message) => {
    const path = temp.file('bad.har', text);
    const result = await runMain(['import', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('export har and import: an output that would destroy the input', () => {
  it('is refused by name and through a link, the input left whole; a missing directory is said in words', async () => {
    const record = temp.file('keep.jsonl', ping);
    const har = temp.file('keep.har', JSON.stringify({ log: { entries: [] } }));
    symlinkSync(record, join(temp.dir, 'link.har'));
    for (const [args, output] of [
      [['export', 'har', record, '-o', record], record],
      [['export', 'har', record, '-o', join(temp.dir, 'link.har')], join(temp.dir, 'link.har')],
      [['import', har, '-o', har], har],
    ] as const) {
      const result = await runMain([...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(`mcp-spy: -o ${output} is the file being read; writing it would destroy it: choose another file\n`);
    }
    expect(readFileSync(record, 'utf8')).toBe(ping);
    expect(readFileSync(har, 'utf8')).toBe(JSON.stringify({ log: { entries: [] } }));
    const missing = await runMain(['export', 'har', record, '-o', '/nonexistent-dir/x.har']);
    expect(missing.stderr).toBe('mcp-spy: cannot write /nonexistent-dir/x.har: its directory does not exist\n');
  });
});

describe('import: files it cannot take', () => {
  it('a directory, or a HAR too large to read whole (said before reading it)', async () => {
    const directory = await runMain(['import', temp.dir]);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toBe(`mcp-spy: cannot read ${temp.dir}: is a directory\n`);
    const huge = temp.file('huge.har', '');
    truncateSync(huge, 600 * 2 ** 20);
    const result = await runMain(['import', huge]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`mcp-spy: ${huge} is 600 MiB: import reads a HAR whole, up to 512 MiB\n`);
  });
});

describe('diff and baselines: bad use', () => {
  const record = (name: string) => temp.file(name, ping);
  const path = (name: string) => join(temp.dir, name);

  it('diff: one line, exit 2', async () => {
    record('a.jsonl');
    const missing = await runMain(['diff', path('a.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^mcp-spy: diff needs two recordings/);
    const absent = await runMain(['diff', path('a.jsonl'), path('nope.jsonl')]);
    expect(absent.code).toBe(2);
    expect(absent.stderr.trim().split('\n')).toHaveLength(1);
  });

  // A spy given one says so in one line and runs its server: test/drift/hostile-baseline.e2e.test.ts.
  it('a baseline that cannot be used: check says so in one line, exit 2', async () => {
    record('pinned.jsonl');
    const missing = await runMain(['check', path('pinned.jsonl'), '--baseline', path('nope.json')]);
    expect([missing.code, missing.stderr]).toEqual([2, `mcp-spy: cannot read baseline ${path('nope.json')}: no such file\n`]);
    const wrong = await runMain(['check', path('pinned.jsonl'), '--baseline', path('pinned.jsonl')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/is not an mcp-spy baseline/);
  });

  it('a baseline written over its own recording (or a link to it) is refused: the recording stays', async () => {
    record('kept.jsonl');
    symlinkSync(path('kept.jsonl'), path('kept-link.json'));
    for (const output of [path('kept.jsonl'), path('kept-link.json')]) {
      const result = await runMain(['baseline', path('kept.jsonl'), '-o', output]);
      expect([result.code, result.stderr]).toEqual([2, `mcp-spy: the baseline would overwrite its recording ${output}; choose another file with -o\n`]);
      expect(readFileSync(path('kept.jsonl'), 'utf8')).toBe(ping);
    }
  });

  it('diff -o writes the report to a file; -o naming either recording is refused and both stay', async () => {
    record('one.jsonl');
    record('two.jsonl');
    const written = await runMain(['diff', path('one.jsonl'), path('two.jsonl'), '--format', 'json', '-o', path('diff.json')]);
    expect([written.code, written.text]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(path('diff.json'), 'utf8'))).toMatchObject({ changes: [], fails: false });
    for (const output of [path('one.jsonl'), path('two.jsonl')]) {
      const result = await runMain(['diff', path('one.jsonl'), path('two.jsonl'), '-o', output]);
      expect([result.code, result.stderr]).toEqual([2, `mcp-spy: -o ${output} is the file being read; writing it would destroy it: choose another file\n`]);
    }
    expect([readFileSync(path('one.jsonl'), 'utf8'), readFileSync(path('two.jsonl'), 'utf8')]).toEqual([ping, ping]);
  });
});

describe('help and --debug', () => {
  it('mcp-spy help and mcp-spy help view print what --help prints', async () => {
    const help = await runMain(['help']);
    expect(help.code).toBe(0);
    expect(help.text).toBe((await runMain(['--help'])).text);
    const view = await runMain(['help', 'view']);
    expect(view.code).toBe(0);
    expect(view.text).toBe((await runMain(['view', '--help'])).text);
  });

  it.each(['view', 'stats', 'check', 'replay', 'mock', 'demo'])('%s accepts --debug', async (command) => {
    expect((await runMain([command, '--help'])).text).toContain('--debug');
  });

  it('view says UTC in its help', async () => {
    expect((await runMain(['view', '--help'])).text).toMatch(/--since <time> +from this time on, UTC/);
  });
});
