// The values a server generated, mapped from the recorded response to the live one by their place.
import { describe, expect, it } from 'vitest';
import { createValueMap, defaultFollows } from '../../src/replay/value-map.js';

const response = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });

describe('createValueMap', () => {
  it('maps a taskId and a nextCursor found in the same place, and replaces them wherever a later frame sends them', () => {
    const values = createValueMap(defaultFollows);
    values.learn(response({ task: { taskId: 'rec-task', status: 'working' } }), response({ task: { taskId: 'live-task', status: 'working' } }));
    values.learn(response({ resources: [], nextCursor: 'rec-page' }), response({ resources: [], nextCursor: 'live-page' }));
    expect(values.apply({ method: 'tasks/get', params: { taskId: 'rec-task' } })).toEqual({ method: 'tasks/get', params: { taskId: 'live-task' } });
    expect(values.apply({ method: 'resources/list', params: { cursor: 'rec-page' } })).toEqual({ method: 'resources/list', params: { cursor: 'live-page' } });
  });

  it('leaves alone what it was not told to follow, values that did not change, and values that are not strings', () => {
    const values = createValueMap(defaultFollows);
    values.learn(response({ handle: 'rec-h', nextCursor: 'same' }), response({ handle: 'live-h', nextCursor: 'same' }));
    values.learn(response({ task: { taskId: 7 } }), response({ task: { taskId: 8 } }));
    const message = { method: 'x', params: { handle: 'rec-h', cursor: 'same', n: 7 } };
    expect(values.apply(message)).toBe(message);
    expect(values.size).toBe(0);
  });

  it('follows a path given with --map', () => {
    const values = createValueMap([...defaultFollows, 'result.handle']);
    values.learn(response({ handle: 'rec-h' }), response({ handle: 'live-h' }));
    expect(values.apply({ method: 'x', params: { handle: 'rec-h', list: ['rec-h'] } })).toEqual({
      method: 'x',
      params: { handle: 'live-h', list: ['live-h'] },
    });
  });
});
