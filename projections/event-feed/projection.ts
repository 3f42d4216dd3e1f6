// The event feed's projection: every catalog event (the webhook catalog: src/webhooks/catalog) as a
// row holding its envelope bytes, in the store's feed order. The runner hands it the catalog
// categories' events in feed order, which on PostgreSQL already waits for late commits (xid8
// visibility, src/eventstore/postgres/read.ts); so a row is never written behind one a reader may
// already have paged past, and the feed never skips an event committed late.
//
// The envelope is the one the catalog projector signs: the same type mapping, the same summary
// (the stream folded with its feature's decider up to the event) and the same serializer
// (catalog-event.ts). The fold is kept in rm_event_feed_streams as JSON text, so each event is one
// evolve step from the stored state, with no read of its stream (the Projection interface has no
// store, and a rebuild reads every stream once anyway).
//
// The webhook sources come from the feature registry through a function: the registry lists this
// projection, so importing it (or mapping.ts, which reads it) from here would be an import cycle.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../src/infra/database.js';
import { categoryOf, type FeedFilter, type RecordedEvent } from '../../src/eventstore/port.js';
import type { WebhookSource } from '../../src/features/feature.js';
import { catalogLookup, type CatalogLookup } from '../../src/webhooks/catalog/catalog-lookup.js';
import { catalogEnvelopeOf, catalogEventOf } from '../../src/webhooks/catalog/catalog-event.js';
import { envelopeText } from '../../src/webhooks/catalog/envelope.js';
import type { Projection } from '../projection.js';
import { PendingWrites } from '../pending-writes.js';
import { jsonRowsText } from '../json-rows.js';

export const EVENT_FEED_PROJECTION = 'event-feed';

interface Folded {
  tenantId: string | null;
  revision: number;
  state: unknown;
  changed: boolean;
}

interface FeedRow {
  tenant_id: string;
  pos_commit: string;
  pos_prepare: string;
  event_guid: string;
  type: string;
  created_at: string;
  payload: string;
}

/** Events folded before their rows are sent (pending-writes.ts): few statements, and enough of them to overlap. */
const CHUNK = 500;

interface StateRow {
  stream_id: string;
  tenant_id: string | null;
  revision: number;
  state: string;
}

const stateRow = (streamId: string, f: Folded): StateRow => ({
  stream_id: streamId,
  tenant_id: f.tenantId,
  revision: f.revision,
  state: JSON.stringify(f.state),
});

/** One event folded into its stream's state: its feed row, or undefined when it has none. */
function foldEvent(
  event: RecordedEvent,
  folds: Map<string, Folded>,
  sourceOf: CatalogLookup['sourceOf'],
  typeOf: CatalogLookup['typeOf'],
): FeedRow | undefined {
  const source = sourceOf(categoryOf(event.streamId));
  if (!source) return undefined;
  let fold = folds.get(event.streamId);
  if (!fold) folds.set(event.streamId, (fold = { tenantId: null, revision: -1, state: source.decider.initialState(), changed: false }));
  if (event.revision <= fold.revision) return undefined; // replayed: already folded (and its row written)
  fold.state = source.decider.evolve(fold.state, { type: event.type, data: event.data });
  fold.revision = event.revision;
  fold.tenantId = typeof event.metadata?.tenantId === 'string' ? event.metadata.tenantId : fold.tenantId;
  fold.changed = true;
  const catalogEvent = catalogEventOf(event, typeOf);
  if (!catalogEvent) return undefined;
  const summary = source.summaryOf(fold.state);
  if (summary === undefined) return undefined;
  const envelope = catalogEnvelopeOf(event, catalogEvent, summary);
  return {
    tenant_id: catalogEvent.tenantId,
    pos_commit: event.position.commit.toString(),
    pos_prepare: event.position.prepare.toString(),
    event_guid: catalogEvent.eventGuid,
    type: catalogEvent.type,
    created_at: envelope.createdAt,
    payload: envelopeText(envelope), // the webhook's bytes as text, without encoding them to decode them again
  };
}

export function eventFeedProjection(sources: () => readonly WebhookSource[]): Projection {
  let lookup: CatalogLookup | undefined;
  const catalog = (): CatalogLookup => (lookup ??= catalogLookup(sources()));
  return {
    name: EVENT_FEED_PROJECTION,
    // Read when the runner starts, after the registry is built.
    get filter(): FeedFilter {
      return { categories: [...catalog().categories] };
    },
    tables: ['rm_event_feed', 'rm_event_feed_streams'],
    async apply(trx: Transaction<Database>, events: RecordedEvent[]) {
      const { sourceOf, typeOf } = catalog();
      const streamIds = [...new Set(events.map((e) => e.streamId))];
      const stored = await trx
        .selectFrom('rm_event_feed_streams')
        .select(['stream_id', 'tenant_id', 'revision', 'state'])
        .where('stream_id', 'in', streamIds)
        .execute();
      const folds = new Map<string, Folded>(
        stored.map((r) => [r.stream_id, { tenantId: r.tenant_id, revision: r.revision, state: JSON.parse(r.state), changed: false }]),
      );

      // The batch is folded in chunks, and each chunk's writes are sent while the next chunk is
      // folded: the database writes one chunk while Node folds the next (a rebuild's batch of 5,000
      // events used to be all fold, then all writes). A stream's state is written once, with the
      // chunk that holds its last event of the batch. A live batch of up to 500 events is one chunk, as before.
      const lastOfStream = new Map<string, number>();
      events.forEach((e, i) => lastOfStream.set(e.streamId, i));
      const tenants = new Set<string>();
      await PendingWrites.around(async (writes) => {
        for (let from = 0; from < events.length; from += CHUNK) {
          const rows: FeedRow[] = [];
          const states: StateRow[] = [];
          const to = Math.min(from + CHUNK, events.length);
          for (let i = from; i < to; i++) {
            const event = events[i]!;
            const row = foldEvent(event, folds, sourceOf, typeOf);
            if (row) rows.push(row);
            const fold = folds.get(event.streamId);
            if (fold?.changed && lastOfStream.get(event.streamId) === i) states.push(stateRow(event.streamId, fold));
          }
          for (const r of rows) tenants.add(r.tenant_id);
          // One json parameter per table, spread into columns by name in the database (as in
          // document-projection.ts): cheaper than thousands of bound parameters. The envelopes and
          // states go in as JSON text, unescaped (json-rows.ts).
          if (rows.length > 0)
            writes.send(
              sql`
                insert into rm_event_feed (tenant_id, pos_commit, pos_prepare, event_guid, type, created_at, payload)
                select tenant_id, pos_commit, pos_prepare, event_guid, type, created_at, payload
                from json_populate_recordset(null::rm_event_feed, ${jsonRowsText(rows, ['payload'])}::json)
                on conflict do nothing`.execute(trx),
            );
          if (states.length > 0)
            writes.send(
              sql`
                insert into rm_event_feed_streams (stream_id, tenant_id, revision, state)
                select stream_id, tenant_id, revision, state
                from json_populate_recordset(null::rm_event_feed_streams, ${jsonRowsText(states, ['state'])}::json)
                on conflict (stream_id) do update set tenant_id = excluded.tenant_id, revision = excluded.revision, state = excluded.state`.execute(
                trx,
              ),
            );
          if (to < events.length) await writes.turn();
        }
      });
      // The tenants that got events: announced with the checkpoint, so long polls of other tenants sleep on.
      return [...tenants];
    },
  };
}
