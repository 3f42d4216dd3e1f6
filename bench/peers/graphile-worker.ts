// graphile-worker as the delivery peer (bench/peers.ts), in a process of its own as our dispatcher
// worker is: a backlog of `jobs` jobs is enqueued in its own schema before the clock starts, then
// a runner at the dispatcher's concurrency makes, per job, the same signed POST our dispatcher
// makes (same body, same headers from buildDeliveryHeaders, a keep-alive agent) to the same sink.
// API from the package's README and type declarations (node_modules/graphile-worker/dist).
//
// Messages: { go: true } starts the runner (the parent times until the sink has every POST);
// { stop: true } stops it and exits.
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import { Logger, makeWorkerUtils, run, type Runner } from 'graphile-worker';
import { buildDeliveryHeaders } from '../../src/webhooks/delivery/headers.js';

const { connectionString, schema, url, ca, jobs, concurrency, secret, body } = JSON.parse(process.argv[2] ?? '{}') as {
  connectionString: string;
  schema: string;
  url: string;
  ca: string;
  jobs: number;
  concurrency: number;
  secret: string;
  body: string;
};
const payload = Buffer.from(body);
const target = new URL(url);
const agent = new https.Agent({ keepAlive: true, maxSockets: concurrency });

// Silent, as our worker is in the bench: a log line per job would be measured too.
const logger = new Logger(() => () => undefined);
const utils = await makeWorkerUtils({ connectionString, schema, logger });
await utils.migrate();
for (let added = 0; added < jobs; added += 1000) {
  const n = Math.min(1000, jobs - added);
  await utils.addJobs(
    Array.from({ length: n }, () => ({ identifier: 'deliver', payload: { eventId: randomUUID(), deliveryId: randomUUID() } })),
  );
}

function post(eventId: string, deliveryId: string): Promise<void> {
  const headers = {
    ...buildDeliveryHeaders({ body: payload, secrets: [secret], eventType: 'employee.created', eventId, deliveryId }),
    'Content-Length': String(payload.length),
  };
  return new Promise((resolve, reject) => {
    const req = https.request(
      { hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, ca, headers, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

let runner: Runner | undefined;
process.send!({ ready: true });
process.on('message', (m: { go?: boolean; stop?: boolean }) => {
  void (async () => {
    if (m.go) {
      runner = await run({
        connectionString,
        schema,
        concurrency,
        noHandleSignals: true,
        logger,
        pollInterval: 1000,
        taskList: {
          deliver: async (p) => {
            const { eventId, deliveryId } = p as { eventId: string; deliveryId: string };
            await post(eventId, deliveryId);
          },
        },
      });
    }
    if (m.stop) {
      await runner?.stop();
      await utils.release();
      agent.destroy();
      process.exit(0);
    }
  })();
});
