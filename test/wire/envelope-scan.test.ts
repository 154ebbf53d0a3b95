import { describe, expect, it } from 'vitest';
import { scanEnvelope } from '../../src/wire/classify/envelope-scan.js';

const big = 'x'.repeat(5000);

describe('scanEnvelope', () => {
  it.each([
    [
      'a request, params cut',
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"q":"${big}`,
      { message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search' } }, unread: [] },
    ],
    [
      'a response, result cut',
      `{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"${big}`,
      { message: { jsonrpc: '2.0', id: 'a', result: {} }, unread: [] },
    ],
    ['keys in another order, blanks, escapes', ` { "result" : {"text":"a\\"}b\\\\","isError":true,"more":"${big}`, { unread: ['jsonrpc', 'id'] }],
    ['an error whose data is cut', `{"jsonrpc":"2.0","error":{"code":-32603,"message":"boom","data":"${big}`, { unread: ['id'] }],
    [
      'an error with its id',
      `{"id":3,"jsonrpc":"2.0","error":{"code":-32603,"message":"boom","data":"${big}`,
      { message: { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'boom' } }, unread: [] },
    ],
    [
      'a notification has no id to miss',
      `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${big}`,
      { message: { jsonrpc: '2.0', method: 'notifications/message', params: {} }, unread: [] },
    ],
    ['a request whose id comes after its params', `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":"${big}`, { unread: ['id'] }],
    ['a number cut short is not read', `{"jsonrpc":"2.0","id":12`, { unread: ['method', 'result', 'error'] }],
    ['not an object', `[{"jsonrpc":"2.0"`, { unread: [] }],
    ['not JSON', `hello ${big}`, { unread: [] }],
  ])('%s', (_name, text, expected) => {
    expect(scanEnvelope(text)).toEqual(expected);
  });

  it('reads a key named like an inherited property as data', () => {
    expect(scanEnvelope(`{"__proto__":{"id":1},"constructor":2,"jsonrpc":"2.0","id":4,"result":"${big}`)).toEqual({
      message: { jsonrpc: '2.0', id: 4, result: {} },
      unread: [],
    });
  });
});
