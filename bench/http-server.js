#!/usr/bin/env node
// Benchmark server for the HTTP spy: answers each POSTed JSON-RPC request with a canned response of
// a given size carrying the request's id, and anything without an id with 202. It reads the id by
// scanning for `"id":` and parses nothing else, so that it is never the bottleneck.
//   node bench/http-server.js [--sse] [--response-bytes 2048]   (prints "listening on PORT")
// --sse answers with an event stream (one event, chunked) instead of one JSON body.
import { createServer } from 'node:http';

const sse = process.argv.includes('--sse');
const sizeAt = process.argv.indexOf('--response-bytes');
const size = sizeAt === -1 ? 2048 : Number(process.argv[sizeAt + 1]);
const ID = Buffer.from('"id":');
const padding = Buffer.alloc(size, 'x');
const head = sse ? 'event: message\ndata: ' : '';
const tail = Buffer.from(`"}]}}${sse ? '\n\n' : ''}`);

/** The request's id as it was written (a number or a quoted string), or undefined for a notification. */
function idOf(body) {
  const at = body.indexOf(ID);
  if (at === -1) return undefined;
  let end = at + ID.length;
  while (end < body.length && body[end] !== 0x2c && body[end] !== 0x7d) end++;
  return body.toString('latin1', at + ID.length, end);
}

function answer(id) {
  const start = Buffer.from(`${head}{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`);
  return Buffer.concat([start, padding.subarray(0, Math.max(0, size - start.length - tail.length)), tail]);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const id = req.method === 'POST' ? idOf(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) : undefined;
    if (id === undefined) {
      res.writeHead(req.method === 'POST' ? 202 : 405).end();
    } else if (sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(answer(id));
      res.end();
    } else {
      const body = answer(id);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
