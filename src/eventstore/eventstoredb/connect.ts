// Opening the client. The client connects lazily, on its first call, so a wrong connection string
// or an unreachable server would otherwise surface much later, inside some subscription's retry
// loop. One small read at start makes the process fail at once, with a message that says why; the
// server's version and the connection string's settings are checked at the same moment
// (server-checks.ts).
import { BACKWARDS, END, EventStoreDBClient, type AllStreamResolvedEvent } from '@eventstore/db-client';
import { readEach } from './pull.js';
import { connectionStringProblem, serverVersionProblem } from './server-checks.js';

const PROBE_TIMEOUT_MS = 10_000;

export async function connect(connectionString: string): Promise<EventStoreDBClient> {
  let client: EventStoreDBClient | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const settingProblem = connectionStringProblem(connectionString);
    if (settingProblem) throw new Error(settingProblem);
    client = EventStoreDBClient.connectionString(connectionString);
    const probe = readEach<AllStreamResolvedEvent>(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }), () => false);
    // Streamed reads carry no deadline: an unanswered connection would wait for ever.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
    });
    await Promise.race([probe, timeout]);
    const versionProblem = serverVersionProblem(await Promise.race([serverVersionOf(client), timeout]));
    if (versionProblem) throw new Error(versionProblem);
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

/** The version the server reported through its features endpoint ('0.0.0.0' style, or undefined). */
async function serverVersionOf(client: EventStoreDBClient): Promise<string | undefined> {
  // `capabilities` is protected in the client's types; it is the client's own cached features call.
  const features = await (client as unknown as { capabilities: Promise<{ serverVersion?: string }> }).capabilities;
  return features.serverVersion;
}
