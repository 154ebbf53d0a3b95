#!/usr/bin/env node
// The floor of any Node HTTP spy: a minimal reverse proxy that pipes each request to the target and
// the response back, looking at nothing. The HTTP benchmark compares mcp-spy with it.
// With a record file it is also the floor of a Node HTTP recorder: each request and response body
// appended as one JSON Lines entry (spliced in unchecked, as `msg`, behind a seq, a time and a
// direction; an event stream's body whole, not split into events), writes batched. It checks and
// analyses nothing: the benchmark runs it beside mcp-spy with BENCH_FLOORS=1.
//   node bench/http-pass.js <target origin> [record file]   (prints "listening on PORT")
import { Agent, createServer, request } from 'node:http';
import { batchedAppend } from './batched-append.js';

const target = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const record = process.argv[3] ? recorder(process.argv[3]) : undefined;

function recorder(path) {
  const append = batchedAppend(path);
  let seq = 0;
  const close = Buffer.from('}\n');
  /** Collects a body as it streams past; appends its entry once it has ended. */
  return (stream, dir) => {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      if (chunks.length === 0) return;
      append(Buffer.from(`{"v":2,"seq":${++seq},"t":"${new Date().toISOString()}","dir":"${dir}","msg":`), ...chunks, close);
    });
  };
}

const server = createServer({ noDelay: true }, (req, res) => {
  const headers = { ...req.headers, host: target.host };
  delete headers.connection;
  const upstream = request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.statusMessage, answer.headers);
    answer.pipe(res);
    record?.(answer, 's2c');
  });
  upstream.on('socket', (socket) => socket.setNoDelay(true));
  upstream.on('error', () => res.destroy());
  res.on('close', () => res.writableFinished || upstream.destroy());
  req.pipe(upstream);
  record?.(req, 'c2s');
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
