// The HTTPS sink's process (see https-sink.ts): answers 204 as soon as a body has arrived and
// reports arrivals to the parent over IPC, batched every 20 ms: [Service-Event-Id, epoch ms].
// Its own process, so the sink never shares an event loop (or its TLS work) with the dispatcher.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

const { cert, key } = JSON.parse(process.argv[2] ?? '{}') as { cert: string; key: string };
let batch: [string, number][] = [];
const server = createServer({ cert, key, keepAliveTimeout: 10_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    batch.push([String(req.headers['service-event-id'] ?? ''), Date.now()]);
    res.writeHead(204).end();
  });
});
server.on('tlsClientError', () => undefined);
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
setInterval(() => {
  if (batch.length === 0) return;
  process.send!({ arrivals: batch });
  batch = [];
}, 20);
process.on('message', (m: { close?: boolean }) => {
  if (m.close) {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
