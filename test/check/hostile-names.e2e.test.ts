import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryLine, writeRecording } from '../helpers/record-lines.js';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

// Issue 8: `check` died with "schema.safeParse is not a function" on a method named `toString`:
// tables keyed by names from the wire found what every object inherits. Names are data now.
const names = ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty'];
const temp = tempDir();
const record = join(temp.dir, 'hostile.jsonl');
const echoServer = [node, fixture('servers', 'echo-server.js')];

/**
 * One session per name, named by it, whose frames use it as method, id, tool, prompt, params key,
 * kind (no kind of the record: each reader says so and skips that line), note and the one property
 * its tool's inputSchema requires.
 */
function sessionLines(name: string, start: number): string[] {
  const lines: string[] = [];
  let seq = start;
  // The echo server answers each request with its params: so do the recorded answers.
  const exchange = (id: string | number, method: string, params: Record<string, unknown>, names: Record<string, string> = {}) => {
    const related = { seq, id, method, ...names };
    lines.push(entryLine(seq++, { dir: 'c2s', kind: 'request', method, id, ...names }, { id, method, params }, name));
    lines.push(entryLine(seq++, { dir: 's2c', kind: 'response', method, id, ...names, latencyMs: 2, related }, { id, result: params }, name));
  };
  exchange(name, name, { [name]: name });
  exchange(1, 'tools/list', { tools: [{ name, inputSchema: { type: 'object', required: [name] } }] });
  exchange(2, 'tools/call', { name, arguments: { [name]: 1 } }, { tool: name });
  exchange(3, 'tools/call', { name, arguments: {} }, { tool: name });
  exchange(4, 'prompts/get', { name, arguments: { [name]: 'x' } }, { prompt: name });
  lines.push(entryLine(seq++, { dir: 'c2s', kind: 'notification', method: name }, { method: name, params: { [name]: true } }, name));
  lines.push(entryLine(seq++, { kind: name, note: name }, undefined, name));
  lines.push(entryLine(seq++, { dir: 's2c', kind: 'invalid', notes: [name, 'stdout-noise'], bytes: 4, raw: name }, undefined, name));
  return lines;
}

/**
 * What the readers say of the record: only that each line whose kind is a hostile name is not an
 * entry of the record (its kind is none of the record's), one line each, the name shown as data.
 */
function onlyUnknownKinds(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => /: not a record entry \(unknown kind "(\w+)"\); skipped$/.exec(line)?.[1] ?? `unexpected: ${line}`);
}

beforeAll(async () => {
  await writeRecording(
    record,
    names.flatMap((name, at) => sessionLines(name, at * 20 + 1)),
  );
});
afterAll(() => temp.remove());

describe('names such as toString, constructor and __proto__ on the wire', () => {
  it('view shows each of them where it stands', async () => {
    const result = await runBin(['view', record]);
    expect(onlyUnknownKinds(result.stderr)).toEqual(names);
    expect(result.code).toBe(0);
    for (const name of names) {
      expect(result.text).toContain(`-> request     ${name} #"${name}" {"${name}":"${name}"}`);
      expect(result.text).toContain(`-> request     tools/call #2 tool=${name} {"arguments":{"${name}":1}}`);
      expect(result.text).toContain(`-> request     prompts/get #4 prompt=${name} {"arguments":{"${name}":"x"}}`);
      expect(result.text).toContain(`-> notify      ${name} {"${name}":true}`);
      expect(result.text).toContain(`<- INVALID     !${name},stdout-noise ${name}`);
    }
    expect(result.text).not.toMatch(/\[object|function /);
  });

  it('stats counts them as names like any other', async () => {
    const result = await runBin(['stats', record, '--format', 'json']);
    expect(onlyUnknownKinds(result.stderr)).toEqual(names);
    const stats = JSON.parse(result.text);
    for (const name of names) {
      expect(Object.hasOwn(stats.kinds, name)).toBe(false);
      expect(stats.methods[name]).toMatchObject({ count: 2, protocolErrors: 0, toolErrors: 0 });
      expect(stats.tools[name]).toMatchObject({ count: 2 });
      expect(stats.invalid.notes[name]).toBe(1);
    }
    expect(Object.keys(stats.methods).sort()).toEqual([...names, 'prompts/get', 'tools/call', 'tools/list'].sort());
    expect(stats.methods['tools/call'].count).toBe(10);
    expect(stats.unanswered).toEqual([]);
    expect(stats.sessions.map((session: { session: string }) => session.session)).toEqual(names);
    const text = await runBin(['stats', record]);
    expect(text.code).toBe(0);
    for (const name of names) expect(text.text).toMatch(new RegExp(`^${name} +2 +0 +0 +2 +2 +2 +2$`, 'm'));
  });

  it.each(['text', 'json', 'junit', 'sarif'])('check --format %s lints them', async (format) => {
    const result = await runBin(['check', record, '--format', format]);
    expect(onlyUnknownKinds(result.stderr)).toEqual(names);
    // Findings, not a crash: among them, a call without the property its tool requires, even when
    // every object inherits one of that name.
    expect(result.code).toBe(1);
    const text = format === 'junit' ? result.text.replace(/&apos;/g, "'").replace(/&quot;/g, '"') : result.text;
    if (format === 'json') expect(JSON.parse(text).errors).toBeGreaterThan(0);
    if (format === 'sarif') expect(JSON.parse(text).runs[0].results.length).toBeGreaterThan(0);
    if (format === 'junit') expect(text).toMatch(/^<\?xml[\s\S]*<\/testsuites>\n$/);
    for (const name of names) {
      expect(text).toContain(`arguments of tool ${name} do not match its inputSchema: (root) must have required property '${name}'`);
      expect(text).toContain(`the result of tool ${name} has no content array`);
    }
    // Every answer is paired with its request (junit and sarif list every rule, found or not).
    if (format === 'text' || format === 'json') expect(text).not.toContain('unanswered-request');
  });

  it('replay re-drives every session and finds the same answers', async () => {
    const result = await runBin(['replay', record, '--', ...echoServer]);
    expect(onlyUnknownKinds(result.stderr)).toEqual(names);
    for (const name of names) {
      expect(result.text).toContain(`session ${name} (stdio)`);
      expect(result.text).toMatch(new RegExp(`^ {2}same {4}#\\d+ ${name} \\(id "${name}"\\)`, 'm'));
      expect(result.text).toMatch(new RegExp(`^ {2}same {4}#\\d+ tools/call ${name} \\(id 3\\)`, 'm'));
    }
    // The noise on stdout is neither sent nor compared: no frame skipped.
    expect(result.text).toMatch(/^replay passed: 25 same, 0 changed, 0 missing, 0 extra in \d+ms$/m);
    expect(result.code).toBe(0);
  });

  it('replay sees a key named like an object property come and go', async () => {
    const path = join(temp.dir, 'diff.jsonl');
    const params = { name: 'echo', arguments: { valueOf: 1 } };
    await writeRecording(path, [
      entryLine(1, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'echo', id: 1 }, { id: 1, method: 'tools/call', params }),
      entryLine(
        2,
        { dir: 's2c', kind: 'response', method: 'tools/call', tool: 'echo', id: 1 },
        { id: 1, result: { name: 'echo', arguments: {}, toString: 'gone' } },
      ),
    ]);
    const result = await runBin(['replay', path, '--', ...echoServer]);
    expect(result.text).toContain('      result.arguments.valueOf: added 1\n');
    expect(result.text).toContain('      result.toString: removed (was "gone")\n');
    expect(result.code).toBe(1);
  });

  it('mock answers them from the recording, and says what it lacks', async () => {
    const ask = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const input = [
      ask(7, 'valueOf', { valueOf: 'valueOf' }),
      ask(8, 'tools/call', { name: 'constructor', arguments: { constructor: 1 } }),
      ask(9, 'isPrototypeOf', {}),
      '',
    ].join('\n');
    const result = await runBin(['mock', record], { input });
    expect(onlyUnknownKinds(result.stderr)).toEqual(names);
    const answers = result.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 7, result: { valueOf: 'valueOf' } });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 8, result: { name: 'constructor', arguments: { constructor: 1 } } });
    expect(answers[2].error.code).toBe(-32601);
    expect(answers[2].error.message).toMatch(
      /^mcp-spy mock: no recorded answer for isPrototypeOf: the recording has no isPrototypeOf request \(recorded: toString, tools\/list, tools\/call, prompts\/get, constructor, __proto__, valueOf, hasOwnProperty\)$/,
    );
  });
});
