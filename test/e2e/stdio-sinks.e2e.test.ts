import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, framesOf, readEntries, runBin, tempDir } from '../helpers/spy.js';

const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

// A loaded machine may take seconds to observe what cat echoes at once: these tests are about where
// entries go, not about finishing in time, so the drain has room (--drain-timeout has tests of its own).
describe('the record and the log', () => {
  it('are created with mode 0600 and appended to by a new run, after its spawn event', async () => {
    const dir = tempDir().dir;
    await runBin(['-q', '--drain-timeout', '60s', '--', 'cat'], { cwd: dir, input: ping(1) });
    await runBin(['-q', '--drain-timeout', '60s', '--', 'cat'], { cwd: dir, input: ping(2) });
    for (const name of ['wire.jsonl', 'wire.log']) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    const entries = readEntries(join(dir, 'wire.jsonl'));
    expect(entries.map((entry) => entry.kind)).toEqual([
      'spawn',
      'request',
      'request',
      'exit',
      'unanswered',
      'spawn',
      'request',
      'request',
      'exit',
      'unanswered',
    ]);
    expect(new Set(entries.map((entry) => entry.session)).size).toBe(2);
    expect(entries[5]).toMatchObject({ seq: 1, kind: 'spawn' });
    expect(readFileSync(join(dir, 'wire.log'), 'utf8').match(/\*\* spawn/g)).toHaveLength(2);
  });

  it('take whole lines from several spies writing at once', async () => {
    const dir = tempDir().dir;
    const burst = Array.from({ length: 3000 }, (_, index) => ping(index)).join('');
    // All of it is to be recorded: finishing may take as long as it needs (on a loaded machine
    // the default 2 s would end it with a gap, as it should).
    await Promise.all(Array.from({ length: 4 }, () => runBin(['-q', '--drain-timeout', '60s', '--', 'cat'], { cwd: dir, input: burst })));
    // Read as readers read it: frames a spy only captured (it was behind) analysed in their place.
    const entries = readEntries(join(dir, 'wire.jsonl'));
    const sessions = new Set(entries.map((entry) => entry.session));
    expect(sessions.size).toBe(4);
    for (const session of sessions) {
      expect(entries.filter((entry) => entry.session === session && entry.kind === 'request')).toHaveLength(6000);
    }
    const logLines = readFileSync(join(dir, 'wire.log'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(logLines.every((line) => /^\d\d:\d\d:\d\d\.\d{3} /.test(line))).toBe(true);
  });

  it('go to the state directory when the working directory is not writable, and the spy says where', async () => {
    const state = tempDir().dir;
    const result = await runBin(['-q', '--drain-timeout', '60s', '--', 'cat'], {
      cwd: '/proc',
      input: ping(1),
      env: { XDG_STATE_HOME: state, MCP_SPY_DIR: '' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe(ping(1));
    expect(result.stderr).toContain(`writing the record and log to ${join(state, 'mcp-spy')} (/proc is not writable)`);
    expect(statSync(join(state, 'mcp-spy')).mode & 0o777).toBe(0o700);
    expect(readEntries(join(state, 'mcp-spy', 'wire.jsonl')).some((entry) => entry.kind === 'request')).toBe(true);
  });

  it('go where MCP_SPY_DIR says', async () => {
    const cwd = tempDir().dir;
    const chosen = join(tempDir().dir, 'logs');
    await runBin(['-q', '--drain-timeout', '60s', '--', 'cat'], { cwd, input: ping(1), env: { MCP_SPY_DIR: chosen } });
    expect(existsSync(join(chosen, 'wire.jsonl'))).toBe(true);
    expect(existsSync(join(cwd, 'wire.jsonl'))).toBe(false);
  });

  it('may fail without touching the traffic: one line on stderr, a gap in the other file', async () => {
    const dir = tempDir().dir;
    const input = Array.from({ length: 50 }, (_, index) => ping(index)).join('');
    const result = await runBin(['-q', '--drain-timeout', '60s', '--log', '/dev/full', '--', 'cat'], { cwd: dir, input });
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe(input);
    const complaints = result.stderr.split('\n').filter((line) => line.includes('cannot write log /dev/full'));
    expect(complaints).toHaveLength(1);
    const entries = readEntries(join(dir, 'wire.jsonl'));
    expect(entries.find((entry) => entry.kind === 'gap')).toMatchObject({ reason: expect.stringContaining('log /dev/full failed') });
    expect(framesOf(entries).filter((entry) => entry.dir === 'c2s')).toHaveLength(50);
  });

  it('a record that cannot be written leaves the traffic and the log alone', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--drain-timeout', '60s', '--record', '/dev/full', '--log', 'w.log', '--', 'cat'], { cwd: dir, input: ping(1) });
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe(ping(1));
    expect(result.stderr).toContain('cannot write record /dev/full');
    const log = readFileSync(join(dir, 'w.log'), 'utf8');
    expect(log).toContain('GAP');
    expect(log).toContain('ping');
  });
});

describe('the live view', () => {
  it('is coloured only when asked, and wire.log never is', async () => {
    const dir = tempDir().dir;
    const forced = await runBin(['--', 'cat'], { cwd: dir, input: ping(1), env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain('\u001b[');
    expect(readFileSync(join(dir, 'wire.log'), 'utf8')).not.toContain('\u001b[');
    const noColor = await runBin(['--', 'cat'], { cwd: dir, input: ping(1), env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColor.stderr).not.toContain('\u001b[');
    const flag = await runBin(['--no-color', '--', 'cat'], { cwd: dir, input: ping(1), env: { FORCE_COLOR: '1' } });
    expect(flag.stderr).not.toContain('\u001b[');
    expect(flag.stderr).toContain('-> request');
  });

  it('is off with --quiet, and never strays onto stdout', async () => {
    const dir = tempDir().dir;
    const quiet = await runBin(['-q', '--', process.execPath, fixture('servers', 'time-server.js')], { cwd: dir, input: ping(1) });
    expect(quiet.stderr).toBe('');
    expect(JSON.parse(quiet.stdout.toString())).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('strips terminal control sequences that peers send', async () => {
    const dir = tempDir().dir;
    const evil = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x\u001b[2Jy' } })}\n`;
    const result = await runBin(['--', 'cat'], { cwd: dir, input: evil });
    expect(result.stderr).not.toContain('\u001b[2J');
    expect(result.stderr).toContain('tool=x\\u001b[2Jy');
  });
});
