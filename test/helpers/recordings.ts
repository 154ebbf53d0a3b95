// Recordings for the review and check tests: real sessions recorded through the built spy, and the checker run as `check` runs it.
import { join } from 'node:path';
import { createChecker } from '../../src/check/engine.js';
import type { CheckOptions } from '../../src/check/types.js';
import { readRecording } from '../../src/record/open-recording.js';
import { everythingServer, fixture, node, recordSession } from './spy.js';

/** Runs the checker over a recording file, as `check` does. */
export async function checkFile(path: string, options: CheckOptions = {}) {
  const checker = createChecker(new Map(), options);
  for await (const { entry, lineNo } of readRecording(path)) checker.add(entry, lineNo);
  return checker.finish();
}

/** Records a real session: the SDK client's review scenario against server-everything over stdio, through the built spy. */
export async function recordEverything(dir: string): Promise<{ record: string; log: string }> {
  const record = join(dir, 'wire.jsonl');
  const log = join(dir, 'wire.log');
  await recordSession('everything-client.js', record, [node, everythingServer, 'stdio'], { SCENARIO: 'review' }, log);
  return { record, log };
}

/** Records a real 2026-07-28 session: the SDK v2 client's review scenario against the v2 server over stdio, through the built spy. */
export async function recordV2(dir: string): Promise<{ record: string; log: string }> {
  const record = join(dir, 'v2.jsonl');
  const log = join(dir, 'v2.log');
  await recordSession('v2-client.js', record, [node, fixture('v2', 'server.js')], { SCENARIO: 'review' }, log);
  return { record, log };
}
