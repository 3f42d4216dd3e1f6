// One webhook worker process for the multi-worker figures of bench/webhooks.ts (issue 13): a
// dispatcher alone (no projector: the backlog is inserted by the parent), on the bench schema, with
// its liveness session, trusting the bench sink's certificate. Tells the parent `ready` once its
// session holds its lock (and its backend pid), wakes on `go`, stops gracefully on `stop`. The
// parent kills it with SIGKILL for the takeover figure.
import pino from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { openDatabase } from '../../src/infra/database.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { secretBox } from '../../src/infra/secrets.js';
import { startDispatcher } from '../../src/webhooks/delivery/dispatcher.js';
import { openLivenessSession, type LivenessSession } from '../../src/webhooks/delivery/liveness.js';
import { DeliveryTransport } from '../../src/webhooks/delivery/transport.js';
import { DeliveryWakeup } from '../../src/webhooks/delivery/wakeup.js';

const { databaseUrl, schema, secretsKey, ca } = JSON.parse(process.argv[2] ?? '{}') as {
  databaseUrl: string;
  schema: string;
  secretsKey: string;
  ca: string;
};
const config = loadConfig({
  DATABASE_URL: databaseUrl,
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'silent',
  RATES_FETCH: 'off',
  ROLE: 'webhooks',
  SECRETS_KEY: secretsKey,
  WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
});
// A small pool: a claim and a record batch need one connection each; the server's slots are shared.
const handle = await openDatabase({ databaseUrl, dataDir: 'memory://', searchPath: schema, poolSize: 6 });
const wakeup = new DeliveryWakeup();
const transport = new DeliveryTransport([ca]);
let session: LivenessSession | undefined;
const dispatcher = startDispatcher({
  db: handle.db,
  config,
  secrets: secretBox(config.secretsKey!),
  metrics: createMetrics(),
  logger: pino({ level: 'silent' }),
  transport,
  wakeup,
  openSession: () =>
    (session = openLivenessSession({ connectionString: databaseUrl, searchPath: schema, name: `bench-dispatcher:${process.pid}` })),
});
while (session?.owner() == null) await new Promise((r) => setTimeout(r, 10));
process.send!({ ready: true, owner: session.owner() });
// CPU is counted from the wake-up: start-up (loading modules) is not part of a delivery's cost.
let cpuAtGo = process.cpuUsage();
process.on('message', (m: { go?: boolean; stop?: boolean; cpu?: boolean }) => {
  if (m.go) {
    cpuAtGo = process.cpuUsage();
    wakeup.wake();
  }
  if (m.cpu) {
    const d = process.cpuUsage(cpuAtGo);
    process.send!({ cpuMs: (d.user + d.system) / 1000 });
  }
  if (m.stop)
    void dispatcher
      .stop()
      .then(() => transport.close())
      .then(() => handle.close())
      .then(() => process.exit(0));
});
