import { afterAll, describe, expect, it } from 'vitest';
import { baselineText, readBaseline } from '../../src/drift/baseline.js';
import { tempDir } from '../helpers/spy.js';
import { pinsFromBaseline, toolHash } from '../../src/wire/correlate/tool-pin.js';

const temp = tempDir('mcp-spy-baseline-');
afterAll(() => temp.remove());
const search = { name: 'search', description: 'Search', inputSchema: { type: 'object' } };
const hostile = { name: '__proto__', description: 'x', inputSchema: { type: 'object' } };
const tools = { notes: { search: { sha256: toolHash(search), definition: search }, __proto__x: { sha256: toolHash(hostile), definition: hostile } } };

describe('the baseline file', () => {
  it('is written with sorted keys and read back as it was', () => {
    const text = baselineText(tools, 'mcp-spy test');
    expect(text.indexOf('"__proto__x"')).toBeLessThan(text.indexOf('"search"'));
    expect(text).toContain('"sha256": "sha256:');
    const read = readBaseline(temp.file('lock.json', text));
    expect(pinsFromBaseline(read)).toEqual({ notes: { search: toolHash(search), __proto__x: toolHash(hostile) } });
  });

  it('shows what a reviewer could not see: invisible characters are \\u escapes, and it reads back the same', () => {
    const poisoned = {
      name: 'translate',
      description: 'Translate.\u{e0053}\u{e0065} a\u200bb \u202eevil\u202c \u00ad\u2060\ufeff\u0085\u001b[31m',
      inputSchema: { type: 'object' },
    };
    const text = baselineText({ notes: { translate: { sha256: toolHash(poisoned), definition: poisoned } } }, 'mcp-spy test');
    expect(text).toContain('"description": "Translate.\\udb40\\udc53\\udb40\\udc65 a\\u200bb \\u202eevil\\u202c \\u00ad\\u2060\\ufeff\\u0085\\u001b[31m"');
    expect(text).toMatch(/^[\x0a\x20-\x7e]*$/);
    expect(readBaseline(temp.file('poisoned.json', text)).notes!.translate!.definition).toEqual(poisoned);
  });

  it('keeps a server named __proto__ as data', () => {
    const text = JSON.stringify({ mcpSpyBaseline: 1, servers: JSON.parse('{"__proto__": {"tools": {}}}') });
    const read = readBaseline(temp.file('proto.json', text));
    expect(Object.keys(read)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).tools).toBeUndefined();
  });

  it.each([
    ['not JSON', '{', /is not an mcp-spy baseline \(not JSON/],
    ['another JSON', '{"servers": {}}', /is not an mcp-spy baseline/],
    ['a newer format', '{"mcpSpyBaseline": 2, "servers": {}}', /baseline format 2 is newer than this mcp-spy reads \(1\); update mcp-spy/],
    ['a format that is a string', '{"mcpSpyBaseline": "1", "servers": {}}', /baseline format "1" is not one this mcp-spy reads \(it reads 1, a number\)$/],
    ['a format that is an object', '{"mcpSpyBaseline": {"toString": 1}, "servers": {}}', /baseline format \{"toString":1\} is not one this mcp-spy reads/],
    [
      'a hash edited by hand',
      JSON.stringify({ mcpSpyBaseline: 1, servers: { notes: { tools: { search: { sha256: 'sha256:00', definition: search } } } } }),
      /server "notes", tool "search": its sha256 does not match its definition/,
    ],
    ['a directory', null, /^cannot read baseline .*: is a directory$/],
    ['a tool of the wrong shape', JSON.stringify({ mcpSpyBaseline: 1, servers: { notes: { tools: { search: 1 } } } }), /expected \{"sha256"/],
  ])('refuses %s with one line that names the place', (_name, text, message) => {
    expect(() => readBaseline(text === null ? temp.dir : temp.file('bad.json', text))).toThrow(message);
  });
});
