import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientErrorAnswer, defaultClientTimeouts, serverTimeoutOptions } from '../../src/transports/http/client-timeouts.js';

describe('serverTimeoutOptions', () => {
  it.each([
    ['the defaults', defaultClientTimeouts, { headersTimeout: 60_000, requestTimeout: 300_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 5_000 }],
    [
      'a request timeout shorter than the headers timeout bounds it',
      { headersMs: 60_000, requestMs: 20_000, keepAliveMs: 5_000 },
      { headersTimeout: 20_000, requestTimeout: 20_000, connectionsCheckingInterval: 2_000 },
    ],
    [
      'no request timeout leaves the headers timeout alone',
      { headersMs: 1_000, requestMs: 0, keepAliveMs: 1_000 },
      { headersTimeout: 1_000, requestTimeout: 0, connectionsCheckingInterval: 100 },
    ],
    [
      'a tiny timeout is still checked at most every 50ms',
      { headersMs: 100, requestMs: 100, keepAliveMs: 100 },
      { headersTimeout: 100, connectionsCheckingInterval: 50 },
    ],
  ])('%s', (_, timeouts, expected) => {
    expect(serverTimeoutOptions(timeouts)).toMatchObject(expected);
  });

  it('gives options Node accepts as they are, with no headers timeout left at 0', () => {
    for (const requestMs of [0, 1_000, 300_000]) {
      const server = createServer(serverTimeoutOptions({ headersMs: 60_000, requestMs, keepAliveMs: 5_000 }));
      expect(server.headersTimeout).toBeGreaterThan(0);
      expect(server.requestTimeout).toBe(requestMs);
      expect(server.timeout).toBe(0);
      server.close();
    }
  });
});

describe('clientErrorAnswer', () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'],
    ['HPE_HEADER_OVERFLOW', 431, 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n'],
    ['HPE_INVALID_METHOD', 400, 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'],
    [undefined, 400, 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'],
  ])('%s', (code, status, bytes) => {
    expect(clientErrorAnswer(code)).toEqual({ status, bytes });
  });
});
