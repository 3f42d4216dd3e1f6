// Opening the client. The client connects lazily, on its first call, so a wrong connection string
// or an unreachable server would otherwise surface much later, inside some subscription's retry
// loop. One small read at start makes the process fail at once, with a message that says why.
import { BACKWARDS, END, EventStoreDBClient, type AllStreamResolvedEvent } from '@eventstore/db-client';
import { readEach } from './pull.js';

const PROBE_TIMEOUT_MS = 10_000;

export async function connect(connectionString: string): Promise<EventStoreDBClient> {
  let client: EventStoreDBClient | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    client = EventStoreDBClient.connectionString(connectionString);
    const probe = readEach<AllStreamResolvedEvent>(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }), () => false);
    // Streamed reads carry no deadline: an unanswered connection would wait for ever.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
    });
    await Promise.race([probe, timeout]);
    return client;
  } catch (err) {
    await client?.dispose().catch(() => undefined);
    // The connection string is not repeated: it may hold credentials.
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot use EventStoreDB at EVENTSTORE_CONNECTION_STRING: ${why}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}
