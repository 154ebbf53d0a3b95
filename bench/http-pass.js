#!/usr/bin/env node
// The floor of any Node HTTP spy: a minimal reverse proxy that pipes each request to the target and
// the response back, looking at nothing. The HTTP benchmark compares mcp-spy with it.
//   node bench/http-pass.js <target origin>   (prints "listening on PORT")
import { Agent, createServer, request } from 'node:http';

const target = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

const server = createServer({ noDelay: true }, (req, res) => {
  const headers = { ...req.headers, host: target.host };
  delete headers.connection;
  const upstream = request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.statusMessage, answer.headers);
    answer.pipe(res);
  });
  upstream.on('socket', (socket) => socket.setNoDelay(true));
  upstream.on('error', () => res.destroy());
  res.on('close', () => res.writableFinished || upstream.destroy());
  req.pipe(upstream);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
