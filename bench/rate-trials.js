// One trial of the rate benchmark: the spy, recording, offered `rate` requests a second (Infinity:
// as fast as they go) for a while; then its record read back. Over stdio against the line server,
// over HTTP against the bench server with 16 keep-alive clients.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startListening, stop } from './bench-processes.js';
import { closedLoop, openClient, openLoop, requestBody } from './http-drive.js';
import { httpSetups, listening, serverModes } from './http-setups.js';
import { countRecord } from './record-count.js';
import { oneAtATime, pipelined, startSetup } from './stdio-drive.js';
import { stdioSetups } from './stdio-setups.js';

const spyRecording = (setups) => setups.find((setup) => setup.name === 'spy record');

/** Reads the record of a trial, then removes it and the log. */
async function readBack(dir, record) {
  const counts = await countRecord(record);
  for (const file of ['wire.jsonl', 'wire.log']) rmSync(join(dir, file), { force: true });
  return counts;
}

/** `count` requests through the stdio spy at `rate` a second (all pipelined when Infinity). */
export async function stdioTrial(workload, { rate, count, dir }) {
  const setup = spyRecording(stdioSetups(dir, workload.responseBytes));
  const running = startSetup(setup.command);
  await oneAtATime(running, { count: 1, requestBytes: workload.requestBytes }); // the spy and server are up
  const seconds = await pipelined(running, { count, requestBytes: workload.requestBytes, rate });
  running.child.stdin.end();
  await running.exited;
  return { calls: count, seconds, framesSent: 2 * (count + 1), record: await readBack(dir, setup.record) };
}

/** The bench server a workload's HTTP trials go to; started once, stopped by the caller. */
export async function startHttpServer(workload) {
  const server = await startListening([...serverModes.json.command, '--response-bytes', String(workload.responseBytes)], /listening on (\d+)/);
  return { ...server, target: `http://127.0.0.1:${server.found}/mcp` };
}

/** Calls through the HTTP spy from 16 clients: at `rate` a second for `seconds`, or as fast as answers come. */
export async function httpTrial(workload, { rate, seconds, dir, server }) {
  const setup = spyRecording(httpSetups(dir, server.target));
  const spy = await startListening(setup.command, listening, { cwd: dir });
  const clients = Array.from({ length: 16 }, () => openClient(`http://127.0.0.1:${spy.found}/mcp`));
  const body = (id) => requestBody(id, workload.requestBytes);
  const ids = { next: 1 };
  const run = rate === Infinity ? await closedLoop(clients, { seconds, body, ids }) : await openLoop(clients, { rate, seconds, body, ids });
  for (const client of clients) client.agent.destroy();
  await stop(spy);
  return { calls: run.calls, seconds: run.seconds, framesSent: 2 * run.calls, record: await readBack(dir, setup.record) };
}
