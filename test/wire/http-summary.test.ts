import { describe, expect, it } from 'vitest';
import { STATUS_CODES } from 'node:http';
import { isNotable, summarizeExchange, type ExchangeFacts } from '../../src/wire/http/http-summary.js';

const post = (facts: Partial<ExchangeFacts>): ExchangeFacts => ({ method: 'POST', request: {}, ...facts });

describe('summarizeExchange and isNotable', () => {
  it.each([
    ['a plain POST answered with JSON', post({ status: 200, response: {} }), 'OK', false],
    ['a POST answered with an SSE stream', post({ status: 200, response: {}, stream: true }), 'OK; SSE stream', false],
    ['a session assigned', post({ status: 200, response: { 'mcp-session-id': 's1' } }), 'OK; session s1 assigned', true],
    ['the same session echoed back', post({ status: 200, request: { 'mcp-session-id': 's1' }, response: { 'mcp-session-id': 's1' } }), 'OK', false],
    ['an accepted notification', post({ status: 202 }), 'Accepted', true],
    ['an expired session', post({ status: 404, request: { 'mcp-session-id': 's1' } }), 'Not Found; session unknown or expired', true],
    ['a DELETE', { method: 'DELETE', request: {}, status: 204 }, 'No Content; session ended', true],
    ['a GET stream resumed', { method: 'GET', request: { 'last-event-id': 'e7' }, status: 200, stream: true }, 'OK; SSE stream; resuming after event e7', true],
    ['a failure with no response', post({ reason: 'cannot reach http://x: ECONNREFUSED' }), 'no response; cannot reach http://x: ECONNREFUSED', true],
    [
      'a legacy endpoint',
      { method: 'GET', request: {}, status: 200, stream: true, endpoint: { from: 'http://s/m', to: 'http://spy/m' } },
      'OK; SSE stream; endpoint http://s/m (given to the client as http://spy/m)',
      true,
    ],
  ])('%s', (_name, facts, summary, notable) => {
    expect(summarizeExchange(facts, STATUS_CODES)).toBe(summary);
    expect(isNotable(facts)).toBe(notable);
  });
});
