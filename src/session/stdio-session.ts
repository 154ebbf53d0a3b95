import { randomBytes } from 'node:crypto';
import type { RecordEntry } from '../record/schema.js';
import { runStdioProxy, type StdioOutcome } from '../transports/stdio.js';
import { createLineFramer } from '../wire/line-framer.js';
import type { Recorder } from './recorder.js';
import type { StderrOut } from './stderr-out.js';

export interface StdioSessionOptions {
  command: string;
  args: string[];
  recorder: Recorder;
  stderrOut: StderrOut;
  maxFrame: number;
  version: string;
}

/** A short id that tells this run's entries apart from those of other spies sharing the record. */
export function newSessionId(): string {
  return `${process.pid.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Runs one server under the spy: forwards, frames, records; resolves with the outcome at exit. */
export async function runStdioSession(options: StdioSessionOptions): Promise<StdioOutcome> {
  const { recorder } = options;
  const session = newSessionId();
  const framers = {
    c2s: createLineFramer(options.maxFrame),
    s2c: createLineFramer(options.maxFrame),
    stderr: createLineFramer(options.maxFrame),
  };

  const frames = (dir: 'c2s' | 's2c', lines: ReturnType<typeof framers.c2s.push>) => {
    for (const line of lines) if (line.size > 0 || line.truncated) recorder.frame(session, dir, line);
  };
  const stderrLines = (lines: ReturnType<typeof framers.stderr.push>) => {
    for (const line of lines) {
      const text = line.bytes.toString('utf8');
      const entry: Partial<RecordEntry> = { dir: undefined, bytes: line.size };
      delete entry.dir;
      if (Buffer.from(text, 'utf8').equals(line.bytes)) entry.raw = text;
      else entry.rawBase64 = line.bytes.toString('base64');
      if (line.eol !== '\n') entry.eol = line.eol;
      if (line.truncated) entry.truncated = true;
      recorder.event(session, 'stderr', entry);
    }
  };

  const outcome = await runStdioProxy({
    command: options.command,
    args: options.args,
    passStderr: (chunk) => options.stderrOut.pass(chunk),
    stderrDrained: () => options.stderrOut.drained(),
    onSpawn: (pid) => {
      recorder.event(session, 'spawn', {
        transport: 'stdio',
        command: [options.command, ...options.args],
        pid,
        cwd: process.cwd(),
        spy: options.version,
      });
    },
    observer: {
      clientChunk: (chunk) => frames('c2s', framers.c2s.push(chunk)),
      clientEnd: () => frames('c2s', [framers.c2s.end()].filter((line) => line !== undefined)),
      serverChunk: (chunk) => frames('s2c', framers.s2c.push(chunk)),
      serverEnd: () => frames('s2c', [framers.s2c.end()].filter((line) => line !== undefined)),
      stderrChunk: (chunk) => stderrLines(framers.stderr.push(chunk)),
      stderrEnd: () => stderrLines([framers.stderr.end()].filter((line) => line !== undefined)),
    },
  });

  if (outcome.started) {
    recorder.endSession(session);
    recorder.event(session, 'exit', { code: outcome.code, signal: outcome.signal });
  }
  return outcome;
}
