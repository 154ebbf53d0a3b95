// One definition of an unanswered request: what the correlator reports at the end of a session.
import { describe, expect, it } from 'vitest';
import { classifyMessage } from '../../src/wire/classify/classify.js';
import { createCorrelator } from '../../src/wire/correlate/correlate.js';
import type { Direction } from '../../src/wire/classify/kinds.js';

function feed(frames: [Direction, object][], closeClientAfter?: number) {
  const correlator = createCorrelator();
  frames.forEach(([dir, body], index) => {
    const message = { jsonrpc: '2.0', ...body };
    correlator.observe({ dir, classified: classifyMessage(message), message, seq: index + 1, timeMs: index });
    if (closeClientAfter === index + 1) correlator.clientClosed();
  });
  return correlator;
}

const rootsRequest: [Direction, object] = ['s2c', { id: 7, method: 'roots/list' }];

describe('unanswered()', () => {
  it('lists a request nobody answered', () => {
    expect(
      feed([rootsRequest])
        .unanswered()
        .map((request) => request.method),
    ).toEqual(['roots/list']);
  });
  it('leaves out a request its sender cancelled', () => {
    expect(feed([rootsRequest, ['s2c', { method: 'notifications/cancelled', params: { requestId: 7 } }]]).unanswered()).toEqual([]);
  });
  it('leaves out a server request sent after the client closed its input, and notes it', () => {
    const correlator = createCorrelator();
    correlator.clientClosed();
    const message = { jsonrpc: '2.0', id: 7, method: 'roots/list' };
    expect(correlator.observe({ dir: 's2c', classified: classifyMessage(message), message, seq: 1, timeMs: 0 }).notes).toEqual(['client-closed']);
    expect(correlator.unanswered()).toEqual([]);
  });
  it('leaves out a server request pending when the client closed with nothing sent after it, and returns it', () => {
    const correlator = feed([['c2s', { id: 1, method: 'tools/list' }], ['s2c', { id: 1, result: { tools: [] } }], rootsRequest]);
    expect(correlator.clientClosed().map((request) => request.method)).toEqual(['roots/list']);
    expect(correlator.unanswered()).toEqual([]);
  });
  it('still lists a server request the client went on talking past before it closed', () => {
    const correlator = feed([rootsRequest, ['c2s', { id: 1, method: 'ping' }], ['s2c', { id: 1, result: {} }]]);
    expect(correlator.clientClosed()).toEqual([]);
    expect(correlator.unanswered().map((request) => request.method)).toEqual(['roots/list']);
  });
  it('still lists a client request pending when the client closed', () => {
    expect(
      feed([['c2s', { id: 1, method: 'tools/list' }]], 1)
        .unanswered()
        .map((request) => request.method),
    ).toEqual(['tools/list']);
  });
});
