import { isUtf8 } from 'node:buffer';
import type { RecordEntry } from '../record/schema.js';
import { createLineFramer, type LineFrame } from '../wire/line-framer.js';
import type { ObserverConfig, ObserverMessage, StdioStream } from './observer-protocol.js';
import type { Recorder } from './recorder.js';

function stderrEntry(line: LineFrame): Partial<RecordEntry> {
  const entry: Partial<RecordEntry> = { bytes: line.size };
  if (line.eol !== '\n') entry.eol = line.eol;
  if (line.truncated) entry.truncated = true;
  if (isUtf8(line.bytes)) entry.raw = line.bytes.toString('utf8');
  else entry.rawBase64 = line.bytes.toString('base64');
  return entry;
}

/** The observer thread's side of the stdio spy: frames each stream into lines and records them. */
export function observeStdio(config: ObserverConfig, recorder: Recorder) {
  const { session } = config;
  const framers = {
    c2s: createLineFramer(config.maxFrame),
    s2c: createLineFramer(config.maxFrame),
    stderr: createLineFramer(config.maxFrame),
  };

  function lines(stream: StdioStream, found: LineFrame[], t: number) {
    for (const line of found) {
      if (stream === 'stderr') recorder.event(session, 'stderr', stderrEntry(line), t);
      else if (line.size > 0 || line.truncated) recorder.frame(session, stream, line, t);
    }
  }

  const handlers: { [K in ObserverMessage['type']]: (message: Extract<ObserverMessage, { type: K }>) => void } = {
    chunk: (m) => lines(m.stream, framers[m.stream].push(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength)), m.t),
    skip: (m) => framers[m.stream].skip(m.bytes, m.lastByte),
    lost: (m) => {
      framers[m.stream].resync();
      recorder.event(session, 'gap', { reason: `the observer fell behind; ${m.stream} bytes were forwarded but not recorded`, stream: m.stream, lost: m.bytes }, m.t);
    },
    end: (m) => {
      const last = framers[m.stream].end();
      if (last) lines(m.stream, [last], m.t);
    },
    event: (m) => {
      if (m.kind === 'exit') recorder.endSession(session);
      recorder.event(session, m.kind, m.fields, m.t);
    },
  };

  return {
    handle: (message: ObserverMessage) => (handlers[message.type] as (m: ObserverMessage) => void)(message),
    end: () => recorder.endSession(session),
  };
}
