// Consumer groups are ESDB persistent subscriptions to $all: the server keeps the group's
// checkpoint, retry buffer and parked-message stream; this side settles every message with ack or
// nack.
//
// One active owner per group. What ESDB does and does not guarantee:
// - consumerStrategyName 'DispatchToSingle' sends every message to the first connected consumer
//   while it has a free buffer slot; only when that consumer is full does a message overflow to
//   the next one. On its own that is a preferred consumer, not an exclusive one: with a buffer of
//   one (below) the owner is "full" whenever it handles a message, and a standby would get work.
// - maxSubscriberCount 1 makes the server refuse a second connection to the group. A standby
//   therefore polls: it tries to connect every second and takes over once the owner has gone.
// - Ownership is the server's view of live connections, nothing more: there is no lease and no
//   fencing token. A consumer cut off by the network may still be finishing a message the server
//   has already re-sent to the next consumer (after dropping the connection or after
//   messageTimeout), so one message can be handled twice, even at the same time.
// - Delivery is at-least-once: after a server restart or leader change the group resumes from its
//   last stored checkpoint (written at most every checkPointAfter, 2 s), so recently acked messages
//   can come again. Retried, parked and replayed messages arrive out of order.
//
// Settling. Each message is settled before the next is taken (buffer size 1), so a retried message
// comes back before any later one: the server serves its retry buffer first. The retry limit is
// applied here, with the handler's reason: at the limit a message is nacked with PARK. The
// server's own limit (same maxRetryCount) then only acts on messages that time out unsettled,
// and parks those with its own reason. After a PARK the consumer waits until the park is visible
// in the parked stream before it takes the next message (see parked.ts).
import {
  DISPATCH_TO_SINGLE,
  END,
  PARK,
  RETRY,
  SKIP,
  START,
  PersistentSubscriptionExistsError,
  PersistentSubscriptionMaximumSubscribersReachedError,
  persistentSubscriptionToAllSettingsFromDefaults,
  type EventStoreDBClient,
  type PersistentSubscriptionToAll,
  type PersistentSubscriptionToAllResolvedEvent,
  type PersistentSubscriptionToAllSettings,
} from '@eventstore/db-client';
import type { ConsumerGroupSettings, NackAction, PersistentSubscriptionOptions, Subscription } from '../port.js';
import { isSystemEvent, toRecorded } from './events.js';
import { planFilter } from './filter.js';
import { awaitParked, encodeParkReason } from './parked.js';
import { Puller } from './pull.js';
import { serverGroupName } from './server-checks.js';
import { sleep } from './sleep.js';

const STANDBY_POLL_MS = 1000;
const RETRY_AFTER_ERROR_MS = 1000;
const ACK_FLUSH_MS = 100;

function desiredSettings(s: ConsumerGroupSettings): PersistentSubscriptionToAllSettings {
  return persistentSubscriptionToAllSettingsFromDefaults({
    startFrom: s.startFrom === 'start' ? START : END,
    maxRetryCount: s.maxRetryCount,
    consumerStrategyName: DISPATCH_TO_SINGLE,
    maxSubscriberCount: 1,
    resolveLinkTos: false,
    // A checkpoint as soon as one message is settled (still at most every checkPointAfter):
    // fewer messages delivered again after a server restart.
    checkPointLowerBound: 1,
  });
}

/**
 * The port's group names and the server's: the server's name carries a hash of the group's filter
 * (server-checks.ts), so it is known once the group was created in this process (the processes
 * that consume a group create it first). Process-wide, like the client.
 */
const serverNames = new Map<string, string>();

export function serverGroupOf(group: string): string {
  const name = serverNames.get(group);
  if (!name) throw new Error(`Consumer group "${group}" was not created in this process (createConsumerGroup names its filter)`);
  return name;
}

export async function createConsumerGroup(client: EventStoreDBClient, portGroup: string, s: ConsumerGroupSettings): Promise<void> {
  const group = serverGroupName(portGroup, s.filter);
  await createServerGroup(client, group, s);
  serverNames.set(portGroup, group);
}

async function createServerGroup(client: EventStoreDBClient, group: string, s: ConsumerGroupSettings): Promise<void> {
  const plan = planFilter(s.filter);
  if (!plan.serverOnly) {
    // A persistent subscription filters on the server only, on one dimension; the consumers could
    // not apply the rest, since ESDB does not give them the group's filter.
    throw new Error(`Consumer group "${group}": EventStoreDB filters a group by event types or by categories, not both`);
  }
  const settings = desiredSettings(s);
  try {
    await client.createPersistentSubscriptionToAll(group, settings, { filter: plan.server });
    return;
  } catch (err) {
    if (!(err instanceof PersistentSubscriptionExistsError)) throw err;
  }
  // The group exists. Updating restarts it on the server (its consumers are dropped and
  // reconnect), so update only what differs, and keep where it started: startFrom applies at
  // creation. The filter is fixed at creation, and the name carries its hash: a new filter is a
  // new group.
  const current = (await client.getPersistentSubscriptionToAllInfo(group)).settings;
  const same =
    current.maxRetryCount === settings.maxRetryCount &&
    current.consumerStrategyName === settings.consumerStrategyName &&
    current.maxSubscriberCount === settings.maxSubscriberCount &&
    current.checkPointLowerBound === settings.checkPointLowerBound;
  if (!same) await client.updatePersistentSubscriptionToAll(group, { ...settings, startFrom: current.startFrom });
}

export function subscribeToConsumerGroup(
  client: EventStoreDBClient,
  portGroup: string,
  o: PersistentSubscriptionOptions,
  reportError?: (err: unknown) => void,
): Subscription {
  const group = serverGroupOf(portGroup);
  const abort = new AbortController();

  const settle = async (
    sub: PersistentSubscriptionToAll,
    msg: PersistentSubscriptionToAllResolvedEvent,
    maxRetryCount: number,
  ): Promise<void> => {
    const e = msg.event;
    if (!e || isSystemEvent(e)) {
      await sub.ack(msg);
      return;
    }
    let outcome: void | { nack: NackAction; reason: string };
    try {
      outcome = await o.handler({ event: toRecorded(e), retryCount: msg.retryCount });
    } catch (err) {
      outcome = { nack: 'retry', reason: err instanceof Error ? err.message : String(err) };
    }
    if (!outcome) await sub.ack(msg);
    else if (outcome.nack === 'skip') await sub.nack(SKIP, outcome.reason, msg);
    else if (outcome.nack === 'park' || msg.retryCount >= maxRetryCount) {
      await sub.nack(PARK, encodeParkReason(outcome.reason, msg.retryCount), msg);
      await awaitParked(client, group, e.id, abort.signal);
    } else {
      // The same back-off as the PostgreSQL emulation; far below the server's messageTimeout.
      await sleep(Math.min(50 * 2 ** msg.retryCount, 2000), abort.signal);
      await sub.nack(RETRY, outcome.reason, msg);
    }
  };

  const consume = async (): Promise<void> => {
    const { maxRetryCount } = (await client.getPersistentSubscriptionToAllInfo(group)).settings;
    const sub = client.subscribeToPersistentSubscriptionToAll(group, { bufferSize: 1 });
    const puller = new Puller<PersistentSubscriptionToAllResolvedEvent>(sub, abort.signal);
    let settledAt = 0;
    try {
      while (!abort.signal.aborted) {
        const msg = puller.tryRead();
        if (msg !== undefined) {
          await settle(sub, msg, maxRetryCount);
          settledAt = Date.now();
          continue;
        }
        if (puller.finished) throw new Error(`EventStoreDB ended the subscription to consumer group "${group}"`);
        await puller.changed();
      }
    } finally {
      // The client resolves an ack once it is queued on the call, not once sent: closing the call
      // at once can drop it (one redelivery). A short pause after a recent settle lets it go out.
      const sinceSettle = Date.now() - settledAt;
      if (sinceSettle < ACK_FLUSH_MS) await sleep(ACK_FLUSH_MS - sinceSettle);
      // A message received but not settled goes back to the group when the connection closes.
      puller.dispose();
      await sub.unsubscribe().catch(() => undefined);
    }
  };

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await consume();
      } catch (err) {
        if (abort.signal.aborted) break;
        if (err instanceof PersistentSubscriptionMaximumSubscribersReachedError) {
          // Another consumer owns the group: wait as a standby.
          await sleep(STANDBY_POLL_MS, abort.signal);
          continue;
        }
        (o.onError ?? reportError)?.(err);
        await sleep(RETRY_AFTER_ERROR_MS, abort.signal);
      }
    }
  })();

  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
