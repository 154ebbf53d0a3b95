// Where import puts an answer read from a HAR body, against the next request of the same page.
import { describe, expect, it } from 'vitest';
import { createHarImport } from '../../src/export/har-import.js';

const session = '0d4c3b2a-1111-4222-8333-944455556666';
const headers = [{ name: 'mcp-session-id', value: session }];

/** A POST of one JSON-RPC message, answered with `answer` as an SSE stream (or 202 and no body). */
function post(startedDateTime: string, time: number, message: object, answer?: object) {
  return {
    startedDateTime,
    time,
    request: { method: 'POST', url: 'http://127.0.0.1:3001/mcp', headers, postData: { mimeType: 'application/json', text: JSON.stringify(message) } },
    response: answer
      ? { status: 200, headers, content: { mimeType: 'text/event-stream', text: `event: message\ndata: ${JSON.stringify(answer)}\n\n` } }
      : { status: 202, headers, content: { mimeType: '', text: '' } },
  };
}

function imported(entries: object[]) {
  const har = createHarImport();
  for (const entry of entries) har.add(entry);
  return [...har.entries()].map((entry) => `${entry.kind} ${'method' in entry ? entry.method : ''}`);
}

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'p', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const answer = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } } };

describe('HAR import order', () => {
  // A browser writes startedDateTime to the millisecond (cut, not rounded) and `time` to a fraction of one:
  // a page that posts again the moment it has its answer starts the next entry within the millisecond the
  // answer ended in. Rounding the time up put that answer after the next request (seen with Chromium).
  it('keeps an answer before the request the page sent once it had it, within the timestamps millisecond', () => {
    expect(imported([post('2026-01-01T00:00:00.100Z', 5.6, initialize, answer), post('2026-01-01T00:00:00.105Z', 1.2, initialized)])).toEqual([
      'request initialize',
      'response initialize',
      'notification notifications/initialized',
    ]);
  });

  it('still puts an answer after a request sent while it was on its way', () => {
    expect(imported([post('2026-01-01T00:00:00.100Z', 40.2, initialize, answer), post('2026-01-01T00:00:00.120Z', 1.2, initialized)])).toEqual([
      'request initialize',
      'notification notifications/initialized',
      'response initialize',
    ]);
  });
});
