// The catalog projector: turns domain events into webhook deliveries. It consumes the event store
// through a persistent subscription (consumer group `webhook-catalog`, one active owner at a time,
// at-least-once), maps each event to its catalog type, and for every active subscription of the
// event's tenant that lists the type inserts one delivery row carrying the serialized envelope.
//
// Idempotent by construction: the event GUID is derived from the domain event id and a delivery is
// unique per (subscription, event), so a redelivered event inserts nothing new.
//
// Commit without fsync: on the PostgreSQL event store the group's checkpoint lives in the same
// database and is written with a synchronous commit after the events it covers. WAL is flushed in
// order, so once a checkpoint is durable every delivery inserted before it is durable too; if the
// database crashes first, the checkpoint is older and those events are projected again (the
// inserts are idempotent). That saves a WAL flush per insert, the projector's largest cost. With
// EventStoreDB the acknowledgement goes elsewhere, so the inserts there stay durable one by one.
//
// Start position: the group starts from the beginning of the feed, not its end. Events recorded
// before a subscription existed get no delivery for it (insertDeliveries compares creation times),
// so replaying old history on a fresh install delivers nothing; starting from the end instead would
// lose every event committed between a subscription's creation and the first start of a webhooks
// process (the API role can create subscriptions before any webhooks role has run).
import type { Logger } from 'pino';
import type { Db } from '../../infra/database.js';
import type { EventStore, RecordedEvent, Subscription } from '../../eventstore/port.js';
import { CATALOG_CATEGORIES, catalogTypeOf } from './mapping.js';
import { insertDeliveries, type DeliveriesOfEvent } from '../delivery/outbox.js';
import { catalogEnvelopeBytes, catalogEventOf } from './catalog-event.js';
import { ResourceSnapshots } from './resource-snapshot.js';
import type { DeliveryWakeup } from '../delivery/wakeup.js';

export const CATALOG_GROUP = 'webhook-catalog';

/**
 * Events per insert when a page of them is projected at once. The dispatcher is woken after each
 * insert, so a backlog's first deliveries can leave once its first run is in rather than its whole
 * page of up to 100. A choice by that reasoning: the benchmark's rounds spread too widely to tell
 * runs of 20 from whole pages (docs/benchmarks.md, session 12).
 */
const RUN_EVENTS = 20;

export interface CatalogProjectorDeps {
  db: Db;
  store: EventStore;
  logger: Logger;
  /** Wakes this process's dispatchers when deliveries were inserted. */
  wakeup: DeliveryWakeup;
}

/**
 * Projects events in their order; returns the number of deliveries they created. Safe to call again
 * for the same events. One statement for them all: the subscribers are found by the insert itself
 * (most events have none, and then nothing is written), and each resource's state comes from
 * `snapshots`.
 */
export async function projectEvents(
  deps: Pick<CatalogProjectorDeps, 'db' | 'store'> & Partial<Pick<CatalogProjectorDeps, 'wakeup'>>,
  events: readonly RecordedEvent[],
  snapshots = new ResourceSnapshots(deps.store, 0),
): Promise<number> {
  const deliveries: DeliveriesOfEvent[] = [];
  for (const event of events) {
    const catalogEvent = catalogEventOf(event, catalogTypeOf);
    if (catalogEvent === undefined) continue;
    const summary = await snapshots.summaryAt(event);
    if (summary === undefined) continue;
    deliveries.push({
      tenantId: catalogEvent.tenantId,
      eventType: catalogEvent.type,
      recordedAt: event.recordedAt,
      eventGuid: catalogEvent.eventGuid,
      sourceEventId: event.id,
      payload: catalogEnvelopeBytes(event, catalogEvent, summary),
    });
  }
  const inserted = await insertDeliveries(deps.db, deliveries, new Date(), deps.store.kind !== 'postgres');
  if (inserted > 0) deps.wakeup?.wake();
  return inserted;
}

/** projectEvents over a page of events, one insert per run of RUN_EVENTS. */
export async function projectPage(
  deps: Parameters<typeof projectEvents>[0],
  events: readonly RecordedEvent[],
  snapshots?: ResourceSnapshots,
): Promise<number> {
  let inserted = 0;
  for (let from = 0; from < events.length; from += RUN_EVENTS) {
    inserted += await projectEvents(deps, events.slice(from, from + RUN_EVENTS), snapshots);
  }
  return inserted;
}

export async function startCatalogProjector(deps: CatalogProjectorDeps): Promise<Subscription> {
  await deps.store.createConsumerGroup(CATALOG_GROUP, {
    filter: { categories: [...CATALOG_CATEGORIES] },
    maxRetryCount: 10,
    startFrom: 'start',
  });
  const snapshots = new ResourceSnapshots(deps.store);
  return deps.store.subscribeToConsumerGroup(CATALOG_GROUP, {
    consumerName: 'webhook-catalog-projector',
    // A run of events in one insert (issue 13: catalog inserts batched); if it throws, the group
    // hands each event of the page to `handler` with its own retries (runs already inserted add
    // nothing then: the inserts are idempotent).
    handleBatch: (events) => projectPage(deps, events, snapshots).then(() => undefined),
    async handler({ event, retryCount }) {
      try {
        await projectEvents(deps, [event], snapshots);
      } catch (err) {
        // A database hiccup: retried with backoff by the group, parked after maxRetryCount.
        deps.logger.warn({ err, eventId: event.id, retryCount }, 'webhook catalog projection failed');
        return { nack: 'retry', reason: err instanceof Error ? err.message : String(err) };
      }
    },
    onError: (err) => deps.logger.error({ err }, 'webhook catalog subscription error'),
  });
}
