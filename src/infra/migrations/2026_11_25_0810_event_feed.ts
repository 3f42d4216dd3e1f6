// The event feed (issue 11): every catalog event of a tenant as the exact envelope bytes webhooks
// send, in the event store's feed order, served by GET /api/v1/events. Both tables are a read model
// (projections/event-feed), rebuildable from the store; the projector fills them on its next start,
// from the beginning of the feed, so existing history is in the feed after this migration too.
// - rm_event_feed: one row per catalog event. The key is the tenant and the store position (the
//   position never changes, so cursors survive a rebuild); the envelope is text, the very bytes.
// - rm_event_feed_streams: the projection's own fold of each catalog stream (the decider state as
//   of its last event, JSON text so key order survives), so an event is one evolve step, never a
//   read of its stream. Internal; never served.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rm_event_feed (
      tenant_id uuid not null,
      pos_commit bigint not null,
      pos_prepare bigint not null,
      event_guid uuid not null,
      type text not null,
      created_at timestamptz not null,
      payload text not null,
      primary key (tenant_id, pos_commit, pos_prepare)
    )`.execute(db);
  await sql`create unique index rm_event_feed_guid on rm_event_feed (tenant_id, event_guid)`.execute(db);
  await sql`create index rm_event_feed_type on rm_event_feed (tenant_id, type, pos_commit, pos_prepare)`.execute(db);
  await sql`
    create table rm_event_feed_streams (
      stream_id text primary key,
      tenant_id text,
      revision int not null,
      state text not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rm_event_feed_streams`.execute(db);
  await sql`drop table rm_event_feed`.execute(db);
}
