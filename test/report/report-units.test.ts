// The pure parts of the report: the data embedded in the page, and Mermaid text from hostile names.
import mermaid from 'mermaid';
import { describe, expect, it } from 'vitest';
import { createMermaidWriter, mermaidText } from '../../src/render/mermaid.js';
import type { TestEntry } from '../helpers/spy.js';
import { embeddedJson } from '../../src/report/html.js';
import { recordingNames } from '../../src/report/report.js';

const hostile = [
  '</script><script>alert(1)</script>',
  '<!--',
  '%%{init: {"theme":"dark"}}%%',
  'a;b\nC->>S: forged',
  '#35; end',
  '\u001b[31m\u2028\u2029',
  '__proto__',
];

describe('embeddedJson', () => {
  it.each(hostile)('keeps %j from ending the script element and reads back the same', (text) => {
    const json = embeddedJson({ text });
    expect(json).not.toMatch(/<[/!sS]|\u2028|\u2029/);
    expect(JSON.parse(json)).toEqual({ text });
  });

  it('keeps text full of < at about its size (escaping each would make it six times)', () => {
    const text = '<'.repeat(10_000) + '<b>a</b>'.repeat(1000) + '</SCRIPT><Script'.repeat(1000);
    const json = embeddedJson({ text });
    expect(json).not.toMatch(/<[/!sS]/);
    expect(JSON.parse(json)).toEqual({ text });
    expect(json.length).toBeLessThan(2 * text.length);
  });

  it('keeps text made of </ under twice its size (each was six bytes and a slash)', () => {
    const text = '</'.repeat(10_000);
    const json = embeddedJson({ text });
    expect(json).not.toMatch(/<[/!sS]/);
    expect(JSON.parse(json)).toEqual({ text });
    expect(json.length).toBeLessThan(1.6 * text.length);
  });
});

describe('recordingNames', () => {
  it.each([
    [['/tmp/a/wire.jsonl'], ['wire.jsonl']],
    [['-'], ['-']],
    [
      ['runs/before.jsonl', 'runs/after.jsonl'],
      ['before.jsonl', 'after.jsonl'],
    ],
    [
      ['/x/before/wire.jsonl', '/x/after/wire.jsonl'],
      ['before/wire.jsonl', 'after/wire.jsonl'],
    ],
    [
      ['/a/run/wire.jsonl', '/b/run/wire.jsonl'],
      ['a/run/wire.jsonl', 'b/run/wire.jsonl'],
    ],
    [
      ['wire.jsonl', 'old/wire.jsonl'],
      ['wire.jsonl', 'old/wire.jsonl'],
    ],
    [
      ['/x/wire.jsonl', '/x/wire.jsonl'],
      ['wire.jsonl', 'wire.jsonl'],
    ],
  ])('names %j as %j', (paths, names) => {
    expect(recordingNames(paths)).toEqual(names);
  });
});

describe('view --format mermaid', () => {
  it('writes one message per frame that Mermaid parses, whatever the names from the wire', async () => {
    const writer = createMermaidWriter();
    const entries: TestEntry[] = hostile.flatMap((name, index) => [
      { v: 2, seq: index * 3 + 1, t: '', session: name, dir: 'c2s', kind: 'request', method: name, tool: name, id: name } as TestEntry,
      {
        v: 2,
        seq: index * 3 + 2,
        t: '',
        session: name,
        dir: 's2c',
        kind: 'protocol-error',
        method: name,
        id: name,
        error: { code: -32601, message: name },
      } as TestEntry,
      { v: 2, seq: index * 3 + 3, t: '', session: name, kind: 'stderr', raw: name, bytes: name.length } as TestEntry,
    ]);
    const text = writer.header + entries.map((entry) => writer.entry(entry)).join('');
    await expect(mermaid.parse(text)).resolves.toMatchObject({ diagramType: 'sequence' });
    expect(text.split('\n').filter((line) => /^ {4}[CS]-/.test(line))).toHaveLength(hostile.length * 2);
    expect(text).not.toMatch(/[<%\u001b]|^\s*C->>S: forged/m);
  });

  it('makes every character outside plain text an entity code', () => {
    expect(mermaidText('tools/call a<b #1')).toBe('tools/call a#60;b #35;1');
  });
});
