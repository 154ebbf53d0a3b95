// What the live view, wire.log and the record show of a stdio session: time order, frames past
// --max-frame, a server that cannot start, previews per method.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, everythingServer, fixture, framesOf, node, readEntries, recordSession, runBin, runBinSync, tempDir, type TestEntry } from '../helpers/spy.js';

const line = (message: object) => `${JSON.stringify(message)}\n`;
const timeOfLine = (text: string) => text.slice(0, 12);
const logOf = (dir: string) => readFileSync(join(dir, 'wire.log'), 'utf8');

/** The lines' leading times never go back. */
function expectForward(times: string[]) {
  expect(times.length).toBeGreaterThan(1);
  for (let index = 1; index < times.length; index++) expect(times[index]! >= times[index - 1]!, `${times[index - 1]} then ${times[index]}`).toBe(true);
}

describe('time order', () => {
  it('says what was left unanswered after the exit, at the time of the exit', async () => {
    const dir = tempDir().dir;
    // cat answers nothing: it echoes the request back. The client's is left unanswered; the echo
    // came after the client closed its input, so nobody could answer it (note client-closed).
    const result = await runBin(['--', 'cat'], { cwd: dir, input: line({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    expect(result.code).toBe(0);
    const entries = readEntries(join(dir, 'wire.jsonl'));
    expect(entries.map((entry) => entry.kind)).toEqual(['spawn', 'request', 'request', 'exit', 'unanswered']);
    const [exit, unanswered] = entries.slice(-2) as [TestEntry, TestEntry];
    expect(unanswered.t).toBe(exit.t);
    expectForward(entries.map((entry) => entry.t ?? ''));
    const logLines = logOf(dir).trimEnd().split('\n');
    // (Whether the echo came before or after the end of input is up to the scheduler.)
    expect(logLines.at(-1)).toMatch(/\*\* unanswered +[12] request\(s\) never answered: #1 ping/);
    expectForward(logLines.map(timeOfLine));
    const liveLines = result.stderr.trimEnd().split('\n');
    expect(liveLines.at(-1)).toMatch(/\*\* unanswered/);
    expectForward(liveLines.map(timeOfLine));
  });
});

describe('a frame larger than --max-frame', () => {
  const ask = line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } });

  it('keeps its envelope: the answer is paired with its request, and check finds nothing wrong', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--max-frame', '1KiB', '--', node, fixture('servers', 'big-answer-server.js'), '--mib', '3'], { cwd: dir, input: ask });
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(3 * 1024 * 1024);
    const entries = readEntries(join(dir, 'wire.jsonl'));
    const answer = framesOf(entries).find((entry) => entry.dir === 's2c')!;
    expect(answer).toMatchObject({ kind: 'response', id: 1, method: 'tools/call', tool: 'big', truncated: true, notes: ['frame-too-large'] });
    expect(answer.bytes).toBeGreaterThan(3 * 1024 * 1024);
    expect(answer.raw!.length).toBeLessThanOrEqual(1024);
    expect(typeof answer.latencyMs).toBe('number');
    expect(answer.unread).toBeUndefined();
    expect(entries.some((entry) => entry.kind === 'unanswered')).toBe(false);
    expect(logOf(dir)).toMatch(/<- response +tools\/call #1 tool=big [\d.]+ms \(\d+ bytes, recorded in part\) !frame-too-large/);
    const check = runBinSync(['check', join(dir, 'wire.jsonl')]);
    expect(check.text).toContain('0 errors');
    expect(check.code).toBe(0);
  });

  it('says so when its id is not in the part kept', async () => {
    const dir = tempDir().dir;
    await runBin(['-q', '--max-frame', '1KiB', '--', node, fixture('servers', 'big-answer-server.js'), '--mib', '2', '--id-last'], { cwd: dir, input: ask });
    const answer = framesOf(readEntries(join(dir, 'wire.jsonl'))).find((entry) => entry.dir === 's2c')!;
    expect(answer).toMatchObject({ kind: 'invalid', truncated: true, unread: ['id'], notes: ['frame-too-large'] });
    expect(logOf(dir)).toContain('recorded in part; id not in the kept part)');
  });
});

describe('a command that cannot start', () => {
  it('is one line on stderr, and wire.log says why', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['--', 'no-such-command-here'], { cwd: dir });
    expect(result.code).toBe(127);
    expect(result.stderr).toBe('mcp-spy: cannot start no-such-command-here: command not found\n');
    const exit = readEntries(join(dir, 'wire.jsonl')).find((entry) => entry.kind === 'exit')!;
    expect(exit).toMatchObject({ code: null, reason: 'cannot start no-such-command-here: command not found (ENOENT)' });
    expect(logOf(dir)).toMatch(/\*\* exit +code=null \(cannot start no-such-command-here: command not found \(ENOENT\)\)\n$/);
  });
});

describe('previews', () => {
  it('say what matters of each method: who the peers are, the tools, prompts and resources there are', async () => {
    const { dir } = tempDir();
    const record = join(dir, 'wire.jsonl');
    const log = join(dir, 'wire.log');
    await recordSession('everything-client.js', record, [node, everythingServer], {}, log);
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/-> request +initialize #0 rev=[\d-]+ client=fixture-client 1\.0\.0 caps=[a-z,]*sampling/);
    expect(text).toMatch(/<- response +initialize #0 [\d.]+ms server=mcp-servers\/everything \S+ rev=[\d-]+ caps=tools,prompts,resources/);
    expect(text).toMatch(/<- response +tools\/list #\d+ [\d.]+ms \d+ tools: echo, /);
    expect(text).toMatch(/<- response +prompts\/list #\d+ [\d.]+ms \d+ prompts: simple-prompt, /);
    expect(text).toMatch(/<- response +tools\/call #\d+ tool=echo [\d.]+ms "Echo: hello"\n/);
    // view re-renders the same lines; --full shows the frames whole.
    const view = runBinSync(['view', record]);
    expect(view.text).toBe(text);
    const full = runBinSync(['view', record, '--method', 'tools/list', '--full']);
    expect(full.text).toContain('"inputSchema"');
  });

  it('fit the terminal the live view, and view, are on', () => {
    const { dir, file } = tempDir();
    const input = file(
      'in.jsonl',
      line({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'narrow', version: '1' } },
      }),
    );
    // `script` puts the spy's stderr (then view's stdout) on a terminal of the width asked.
    const onTerminal = (columns: number, command: string) =>
      spawnSync('script', ['-qec', `stty cols ${columns}; ${command}`, '/dev/null'], {
        cwd: dir,
        env: { ...process.env, FORCE_COLOR: '0' },
        encoding: 'utf8',
        timeout: 30_000,
      })
        .stdout.split(/\r?\n/)
        .filter((text) => / (->|<-) /.test(text));
    const live = onTerminal(100, `${node} ${bin} --record r.jsonl --no-log -- ${node} ${everythingServer} < ${input} > /dev/null`);
    expect(live.map((text) => text.slice(13, 30))).toEqual(['-> request     in', '<- response    in']);
    for (const text of live) expect(text.length).toBeLessThanOrEqual(100);
    expect(live[1]).toMatch(/server=mcp-servers\/everything .*…$/);
    const view = onTerminal(70, `${node} ${bin} view r.jsonl`);
    expect(view).toHaveLength(2);
    for (const text of view) expect(text.length).toBeLessThanOrEqual(70);
    // Into a file or a pipe, lines keep their fixed length.
    const piped = runBinSync(['view', join(dir, 'r.jsonl')])
      .text.split('\n')
      .find((text) => text.includes('<- response'));
    expect(piped!.length).toBeGreaterThan(100);
  });
});
