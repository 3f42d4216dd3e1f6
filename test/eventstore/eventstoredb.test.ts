// The event-store contract on the EventStoreDB adapter, against the server that
// EVENTSTORE_CONNECTION_STRING names (e.g. esdb://localhost:2113?tls=false, see docker-compose.yml).
// No server is faked: without one nothing can be checked, and the file says so and skips. The
// adapter is imported only when a server is configured, like in the application (its client is an
// optional dependency). Every contract test writes to its own stream category, so the suite runs
// against a server that already holds data; it cannot reset the server and does not try.
import t, { type Test } from 'tap';
import type { EventStore } from '../../src/eventstore/port.js';
import { eventStoreContract, type ContractSubject } from './contract.js';
import { eventStoreFeedContract } from './contract-feed.js';
import { eventStoreGroupContract } from './contract-groups.js';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING?.trim();

if (!connectionString) {
  t.comment('EventStoreDB contract run SKIPPED: no server configured (EVENTSTORE_CONNECTION_STRING is not set).');
  t.comment('To run it: EVENTSTORE_CONNECTION_STRING=esdb://localhost:2113?tls=false npm test');
  t.skip('EventStoreDB contract suite: skipped, no EventStoreDB server is configured', async () => undefined);
} else {
  const { createEventStoreDbEventStore } = await import('../../src/eventstore/eventstoredb/index.js');
  const { deleteConsumerGroups } = await import('../../src/eventstore/eventstoredb/group-cleanup.js');
  // Every contract group is named g-ct…: the run removes what it created (the server keeps groups).
  t.teardown(async () => {
    const removed = await deleteConsumerGroups(connectionString, 'g-ct');
    t.comment(`removed ${removed.length} consumer groups created by this run`);
  });
  t.comment('event store: EventStoreDB (EVENTSTORE_CONNECTION_STRING)');

  const openSubject = async (t: Test): Promise<ContractSubject> => {
    // A second client on the same server stands for another process: `reopen`.
    const open = async (): Promise<EventStore> => {
      const store = await createEventStoreDbEventStore(connectionString);
      t.teardown(() => store.close());
      return store;
    };
    // No beginSlowAppend / naiveFeed: ESDB commits appends in log order, so the late-commit race
    // the PostgreSQL adapter guards against cannot happen, and the contract skips that test.
    return { store: await open(), reopen: open };
  };
  for (const contract of [eventStoreContract, eventStoreFeedContract, eventStoreGroupContract]) contract(t, openSubject);
}
