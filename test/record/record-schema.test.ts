import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { recordJsonSchema } from '../../src/record/entry-schema.js';
import { frameText, messageOf, splicedText } from '../../src/record/frame-message.js';
import { parseRecordLine, RecordReadError } from '../../src/record/reader.js';
import { splicedLine } from '../../src/record/record-line.js';
import { root } from '../helpers/spy.js';

const published = readFileSync(join(root, 'docs', 'record.schema.json'), 'utf8');
const validate = new Ajv2020({ strict: false }).compile(JSON.parse(published));
const frame = { v: 2, seq: 1, t: '2026-07-28T10:00:00.000Z', session: 's', dir: 'c2s', kind: 'request', method: 'ping', id: 1, bytes: 40 };
const wire = '{"jsonrpc":"2.0", "id":1,"method":"ping"}';

describe('the record schema', () => {
  it('is the one generated from the definition (npm run docs:schema)', () => {
    expect(published).toBe(`${JSON.stringify(recordJsonSchema(), null, 2)}\n`);
  });

  it('accepts a spliced frame line and each kind of event', () => {
    const [head, json, tail] = splicedLine(frame, wire);
    expect(validate(JSON.parse(head + json + tail))).toBe(true);
    for (const event of [
      { v: 2, seq: 2, t: frame.t, kind: 'spawn', transport: 'stdio', command: ['node', 's.js'], pid: 7, cwd: '/', spy: '0.1.0' },
      { v: 2, seq: 3, t: frame.t, kind: 'stderr', bytes: 2, raw: 'hi' },
      { v: 2, seq: 4, t: frame.t, kind: 'gap', reason: 'behind', stream: 's2c', lost: 10 },
      { v: 2, seq: 5, t: frame.t, kind: 'unanswered', requests: [{ seq: 1, dir: 'c2s', id: 1, method: 'ping' }], notes: ['unanswered-request'] },
      { v: 2, seq: 6, t: frame.t, kind: 'exit', code: 0, signal: null },
      { v: 2, seq: 7, t: frame.t, kind: 'note', notes: ['client-gone'], text: 'EPIPE' },
    ]) {
      expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('refuses a field no kind defines, a kind it does not know, and an old version', () => {
    expect(validate({ ...frame, rawText: 'x' })).toBe(false);
    expect(validate({ ...frame, kind: 'mystery' })).toBe(false);
    expect(validate({ ...frame, v: 1 })).toBe(false);
    expect(validate({ v: 2, seq: 1, t: frame.t, kind: 'exit', code: 0, signal: null, dir: 'c2s' })).toBe(false);
  });
});

describe('a v2 frame line', () => {
  it('holds the frame bytes unescaped, last, and gives them back exactly', () => {
    const [head, json, tail] = splicedLine(frame, wire);
    const line = (head + json + tail).trimEnd();
    expect(line.endsWith(`"msg":${wire}}`)).toBe(true);
    const item = parseRecordLine(line, 1);
    expect(item.ok).toBe(true);
    if (!item.ok) return;
    expect(messageOf(item.entry)).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(frameText(item.entry)).toBe(wire);
  });

  it('finds msg at the top level only, past strings and objects that hold the same words', () => {
    const tricky = { ...frame, method: '"msg":{', tool: '}', headers: { msg: 'x"msg":' } };
    const [head, json, tail] = splicedLine(tricky, wire);
    expect(splicedText((head + json + tail).trimEnd())).toBe(wire);
  });
});

describe('reading version 1', () => {
  it('migrates raw to msg and keeps the exact text', () => {
    const v1 = JSON.stringify({ ...frame, v: 1, raw: wire });
    const item = parseRecordLine(v1, 1);
    if (!item.ok) throw new Error('not read');
    expect(item.entry).toMatchObject({ v: 2, msg: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(item.entry).not.toHaveProperty('raw');
    expect(frameText(item.entry)).toBe(wire);
  });

  it('keeps text that is not JSON as raw', () => {
    const item = parseRecordLine(JSON.stringify({ ...frame, v: 1, kind: 'invalid', raw: 'Server ready' }), 1);
    if (!item.ok) throw new Error('not read');
    expect(item.entry).toMatchObject({ v: 2, raw: 'Server ready' });
    expect(item.entry).not.toHaveProperty('msg');
  });

  it('refuses a version without a migration step, in one line', () => {
    expect(() => parseRecordLine(JSON.stringify({ ...frame, v: 0 }), 3, 'old.jsonl')).toThrow(RecordReadError);
    expect(() => parseRecordLine(JSON.stringify({ ...frame, v: 0 }), 3, 'old.jsonl')).toThrow('old.jsonl:3: record version 0 cannot be read');
  });
});
