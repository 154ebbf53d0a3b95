// A session is live while the process that writes its record runs: an HTTP spy (which writes no end of
// its own) once stopped, and a spy killed before it could write its exit entry, show as ended.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { reduce } from '../../src/ui/reducer.js';
import { createFileLoader, followSources } from '../../src/ui/sources.js';
import { initialState, type ViewState } from '../../src/ui/state.js';
import { alive } from '../../src/record/sessions-dir.js';
import { eventually, startSpy } from '../helpers/http-spy.js';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} })}\n`;

/** The console's state over a sessions directory, read until every file there is caught up. */
async function consoleOver(dir: string): Promise<ViewState> {
  const files = createFileLoader();
  let state = initialState({ load: files.load });
  const stop = new AbortController();
  const caughtUp = new Set<string>();
  const done = followSources({
    paths: [dir],
    signal: stop.signal,
    pollMs: 20,
    onBatch: (items) => (state = reduce(state, { type: 'entries', items })),
    onProblem: () => {},
    onCaughtUp: (file) => caughtUp.add(file),
  });
  await eventually(() => readdirSync(dir).every((name) => caughtUp.has(join(dir, name))) || undefined);
  stop.abort();
  await done;
  files.close();
  return state;
}

/** The one session file of the directory, once it holds an answer (the directory is made by the spy). */
function answered(dir: string): true | undefined {
  try {
    const [name] = readdirSync(dir);
    return (name !== undefined && /"dir":"s2c"/.test(readFileSync(join(dir, name), 'utf8'))) || undefined;
  } catch {
    return undefined;
  }
}

const stateOf = (state: ViewState) => state.sessions.map((session) => (session.ended ? 'ended' : 'live'));

describe('mcp-spy ui: a session is live only while its writer runs', () => {
  it('an HTTP spy: live while it serves, ended once stopped (it writes no exit entry)', async () => {
    const temp = tempDir();
    onTestFinished(() => temp.remove());
    const dir = join(temp.dir, 'sessions');
    const spy = await startSpy(['--target', 'http://127.0.0.1:1/mcp', '--client', 'cursor', '--name', 'remote'], [], { MCP_SPY_DIR: dir });
    let stopped = false;
    onTestFinished(async () => void (stopped || (await spy.dispose())));
    await fetch(spy.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: request });
    await eventually(() => answered(dir));
    // (The spy's own first entry has no session id: the file shows as two sessions, both its.)
    let state = reduce(await consoleOver(dir), { type: 'liveness', alive });
    expect(new Set(stateOf(state))).toEqual(new Set(['live']));
    await spy.dispose();
    stopped = true;
    state = reduce(state, { type: 'liveness', alive });
    expect(new Set(stateOf(state))).toEqual(new Set(['ended']));
  });

  it('a stdio spy killed before it wrote its exit entry: ended, not live forever', async () => {
    const temp = tempDir();
    onTestFinished(() => temp.remove());
    const dir = join(temp.dir, 'sessions');
    let stdin: NodeJS.WritableStream | undefined;
    let pid = 0;
    const running = runBin(['-q', '--name', 'echo', '--', node, fixture('servers', 'echo-server.js')], {
      env: { MCP_SPY_DIR: dir },
      onStart: (child) => {
        stdin = child.stdin!;
        pid = child.pid!;
      },
    });
    onTestFinished(async () => {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      await running;
    });
    stdin!.write(request);
    await eventually(() => answered(dir));
    let state = reduce(await consoleOver(dir), { type: 'liveness', alive });
    expect(stateOf(state)).toEqual(['live']);
    process.kill(pid, 'SIGKILL');
    await running;
    expect(readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8')).not.toContain('"kind":"exit"');
    state = reduce(state, { type: 'liveness', alive });
    expect(stateOf(state)).toEqual(['ended']);
  });
});
