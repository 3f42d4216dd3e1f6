// Runs one autocannon load in its own process (so the load generator never shares an event loop
// with the server it measures) and prints a JSON summary. Spec on stdin: see LoadSpec in
// load-spec.ts (runLoad has checked that it is loopback).
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-spec.js';

const chunks: Buffer[] = [];
for await (const c of process.stdin) chunks.push(c as Buffer);
const spec = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadSpec;

const variants = spec.variants ?? [];
let next = 0;
let sent = 0;
const unique = spec.uniqueHeader;
const result = await autocannon({
  url: spec.origin,
  connections: spec.connections,
  duration: spec.seconds,
  timeout: 30,
  requests: [
    {
      method: spec.method,
      path: spec.path,
      headers: spec.headers,
      ...(spec.body === undefined ? {} : { body: spec.body }),
      ...(variants.length > 0 || unique !== undefined
        ? {
            // One variant per request, in turn (several entries to read, or several tenants to write),
            // and the unique header's next value.
            setupRequest: (req) => {
              const v = variants.length > 0 ? variants[next++ % variants.length]! : {};
              const headers = {
                ...req.headers,
                ...(v.authorization === undefined ? {} : { authorization: v.authorization }),
                ...(unique === undefined ? {} : { [unique.name]: `${unique.prefix}-${++sent}` }),
              };
              return {
                ...req,
                ...(v.path === undefined ? {} : { path: v.path }),
                ...(v.body === undefined ? {} : { body: v.body }),
                headers,
              };
            },
          }
        : {}),
    },
  ],
});
const summary: LoadResult = {
  seconds: result.duration,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count])),
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
};
process.stdout.write(JSON.stringify(summary));
