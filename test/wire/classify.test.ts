import { describe, expect, it } from 'vitest';
import { classifyMessage } from '../../src/wire/classify/classify.js';
import { decodeFrame } from '../../src/wire/classify/decode.js';

describe('classifyMessage', () => {
  it.each([
    ['request', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'request', []],
    ['request with a string id', { jsonrpc: '2.0', id: 'a', method: 'ping' }, 'request', []],
    ['request with id null', { jsonrpc: '2.0', id: null, method: 'ping' }, 'request', ['id-null']],
    ['notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, 'notification', []],
    ['response', { jsonrpc: '2.0', id: 1, result: {} }, 'response', []],
    ['tool error', { jsonrpc: '2.0', id: 1, result: { content: [], isError: true } }, 'tool-error', []],
    ['protocol error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }, 'protocol-error', []],
    ['error without id', { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }, 'protocol-error', []],
    ['no jsonrpc member', { id: 1, method: 'ping' }, 'invalid', ['not-jsonrpc']],
    ['wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'ping' }, 'invalid', ['not-jsonrpc']],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'ping' }, 'invalid', ['invalid-id']],
    ['result and error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }, 'invalid', ['result-and-error']],
    ['an error that is a string', { jsonrpc: '2.0', id: 1, error: 'boom' }, 'invalid', ['bad-error-object']],
    ['a number', 42, 'invalid', ['not-jsonrpc']],
    ['null', null, 'invalid', ['not-jsonrpc']],
    ['neither method nor result', { jsonrpc: '2.0', id: 1 }, 'invalid', ['not-jsonrpc']],
  ])('%s', (_name, message, kind, notes) => {
    const classified = classifyMessage(message);
    expect(classified.kind).toBe(kind);
    expect(classified.notes).toEqual(notes);
  });

  it('keeps the error as sent', () => {
    const classified = classifyMessage({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad', data: { x: 1 } } });
    expect(classified.error).toEqual({ code: -32602, message: 'bad', data: { x: 1 } });
    expect(classified.id).toBe(7);
  });
});

describe('decodeFrame', () => {
  it.each([
    ['JSON', Buffer.from('{"a":1}'), { ok: true, text: '{"a":1}', value: { a: 1 } }],
    ['text that is not JSON', Buffer.from('hello'), { ok: false, reason: 'not-json', text: 'hello' }],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0x41]), { ok: false, reason: 'not-utf8', base64: '/0E=' }],
  ])('%s', (_name, bytes, expected) => {
    expect(decodeFrame(bytes)).toEqual(expected);
  });

  it('tells JSON from text as a parse does, without parsing what cannot begin JSON', () => {
    const texts = [
      '',
      ' ',
      'ab',
      'hello world',
      'Server ready on stdio',
      '\ufeff{}',
      '  {"a":1}',
      '\t[1]',
      '\r\n{}',
      '"s"',
      '-1',
      '12',
      'true',
      'false',
      'null',
      'nul',
      'tru',
      'fals',
      '{',
      '[1,',
      '{"a":}',
      '+1',
      '.5',
      'NaN',
      'Infinity',
      "{'a':1}",
      '\u00a0{}',
      '}',
      ']',
    ];
    for (const text of texts) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect([text, decodeFrame(Buffer.from(text)).ok]).toEqual([text, parses]);
    }
  });

  it('keeps the text of a truncated frame cut inside a character', () => {
    const bytes = Buffer.from('{"a":"é', 'utf8').subarray(0, 7);
    expect(decodeFrame(bytes, true)).toMatchObject({ ok: false, reason: 'frame-too-large', text: expect.stringContaining('{"a":"') });
  });
});
