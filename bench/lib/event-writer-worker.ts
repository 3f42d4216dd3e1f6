// A writer process for the webhook latency benchmark: commits EmployeeRegistered events through the
// real write path at a fixed rate, as an API process would, and reports [domain event id, commit
// time (Date.now())] to the parent over IPC, batched every 20 ms. The webhooks worker under test
// runs in the parent; it learns of the appends the way a separate worker does (NOTIFY and polling).
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../src/application/command-handler.js';
import { employeeDecider, streamName } from '../../src/domain/employees/index.js';
import { openEventStore } from '../../src/eventstore/open-event-store.js';
import { openDatabase } from '../../src/infra/database.js';

const { databaseUrl, schema, tenantId, rate, seconds } = JSON.parse(process.argv[2] ?? '{}') as {
  databaseUrl: string;
  schema: string;
  tenantId: string;
  rate: number;
  seconds: number;
};
const handle = await openDatabase({ databaseUrl, dataDir: 'memory://', searchPath: schema, poolSize: 20 });
const store = await openEventStore({ eventStore: 'postgres' }, handle);
let batch: [string, number][] = [];
const flush = setInterval(() => {
  if (batch.length > 0) process.send!({ commits: batch });
  batch = [];
}, 20);
const total = rate * seconds;
const started = performance.now();
const pending: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  const wait = started + (i * 1000) / rate - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const employeeId = randomUUID();
  pending.push(
    handleCommand(store, {
      streamId: streamName(employeeId),
      decider: employeeDecider,
      command: {
        type: 'RegisterEmployee',
        data: { employeeId, fields: { firstName: `Bench${i}`, lastName: 'Webhook' }, customFieldDefinitions: [] },
      },
      context: { tenantId, now: new Date().toISOString(), newId: randomUUID, actor: { system: 'bench' } },
      correlationId: randomUUID(),
    }).then((r) => {
      batch.push([r.events[0]!.id, Date.now()]);
    }),
  );
}
await Promise.all(pending);
clearInterval(flush);
// Wait for each message to be handed over: exiting with IPC messages queued would drop them.
const send = (m: unknown): Promise<void> => new Promise((resolve) => process.send!(m, () => resolve()));
if (batch.length > 0) await send({ commits: batch });
await send({ done: true, offeredSeconds: (performance.now() - started) / 1000 });
await store.close();
await handle.close();
process.disconnect();
