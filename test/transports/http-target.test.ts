import { describe, expect, it } from 'vitest';
import { forwardableHeaders, streamConnection } from '../../src/transports/http/headers.js';
import { parseListen, parseTarget } from '../../src/transports/http/target.js';

describe('parseTarget', () => {
  it.each([
    ['http://127.0.0.1:3000/mcp', true],
    ['https://api.example.com/mcp?key=1', true],
    ['ftp://example.com', false],
    ['127.0.0.1:3000', false],
    ['http://user:pw@example.com/', false],
    ['not a url', false],
  ])('%s', (text, ok) => {
    expect(parseTarget(text).ok).toBe(ok);
  });
});

describe('parseListen', () => {
  it.each([
    ['7000', { host: '127.0.0.1', port: 7000 }],
    ['0.0.0.0:7000', { host: '0.0.0.0', port: 7000 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:7000', { host: '::1', port: 7000 }],
  ])('%s', (text, address) => {
    expect(parseListen(text)).toEqual({ ok: true, address });
  });

  it.each(['', 'host', 'host:port', '1:2:3', '127.0.0.1:70000'])('refuses %j', (text) => {
    expect(parseListen(text).ok).toBe(false);
  });
});

describe('forwardableHeaders', () => {
  it('drops hop-by-hop headers and those Connection names, replaces Host, keeps the rest as sent', () => {
    const raw = [
      'Host',
      'spy:7000',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      '1',
      'Transfer-Encoding',
      'chunked',
      'Accept',
      'a',
      'accept',
      'b',
      'Mcp-Session-Id',
      's',
    ];
    expect(forwardableHeaders(raw, 'server:3000')).toEqual(['Host', 'server:3000', 'Accept', 'a', 'accept', 'b', 'Mcp-Session-Id', 's']);
    expect(forwardableHeaders(['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Keep-Alive', 'timeout=5'])).toEqual(['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']);
  });

  it.each([
    { connection: ['Connection', ' Keep-Alive '], kept: ['X-Named', '1', 'X-Other', '2'] },
    { connection: ['connection', 'close'], kept: ['X-Named', '1', 'X-Other', '2'] },
    { connection: ['CONNECTION', 'close,x-named'], kept: ['X-Other', '2'] },
    { connection: ['Connection', 'keep-alive', 'Connection', 'X-NAMED'], kept: ['X-Other', '2'] },
    { connection: ['Connectionx', 'x-named'], kept: ['Connectionx', 'x-named', 'X-Named', '1', 'X-Other', '2'] },
  ])('Connection $connection: keeps $kept', ({ connection, kept }) => {
    expect(forwardableHeaders([...connection, 'X-Named', '1', 'X-Other', '2'])).toEqual(kept);
  });
});

describe('streamConnection', () => {
  it.each([
    { raw: ['connection', 'keep-alive'], request: {}, kept: ['connection', 'keep-alive'] },
    { raw: ['Connection', 'close'], request: { connection: 'keep-alive' }, kept: ['Connection', 'close'] },
    { raw: ['Connection', 'keep-alive, X-Hop'], request: {}, kept: [] },
    { raw: ['connection', 'keep-alive'], request: { connection: 'close' }, kept: [] },
    { raw: ['X-Other', '1'], request: {}, kept: [] },
  ])('server $raw, client $request: $kept', ({ raw, request, kept }) => {
    expect(streamConnection(raw, request)).toEqual(kept);
  });
});
