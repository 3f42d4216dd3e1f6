// One append in one statement (docs/benchmarks.md, figure 1): the lock, the expected-revision check,
// the stream row and the events used to cost six round trips (begin, lock, read, upsert, insert,
// commit). As a function called in autocommit they cost one. The stream's revision is now read off
// its last event (the unique (stream_id, revision) index answers it), so es_streams, which only
// repeated that number, is dropped: one row write and one index write less per append. Events are
// never deleted, so the two can not disagree. The order of work inside is as before, so the feed
// guarantees of research note 4.5 hold unchanged:
// 1. the per-stream advisory lock comes first and assigns no xid, so xids are taken in lock order;
// 2. a conflict is reported as a row ('conflict', actual revision), not an error, so the caller can
//    check for an idempotent re-append without a rolled-back transaction;
// 3. an event id that is already stored makes the insert skip it; the function then raises ESDUP,
//    which undoes the whole statement, and the caller resolves the re-append.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function es_append(p_stream text, p_category text, p_expected_kind text, p_expected_revision bigint, p_events jsonb)
    returns table (outcome text, revision bigint, global_position bigint, tx_id text)
    language plpgsql as $fn$
    declare
      v_actual bigint;
      v_first bigint;
      v_count int := jsonb_array_length(p_events);
      v_inserted int;
      v_position bigint;
    begin
      perform pg_advisory_xact_lock(hashtextextended(p_stream, 0));
      select max(e.revision) into v_actual from es_events e where e.stream_id = p_stream;
      if not (p_expected_kind = 'any'
          or (p_expected_kind = 'no_stream' and v_actual is null)
          or (p_expected_kind = 'stream_exists' and v_actual is not null)
          -- not '=': a missing stream's null revision would make the whole test null, and pass
          or (p_expected_kind = 'exact' and v_actual is not distinct from p_expected_revision)) then
        return query select 'conflict'::text, v_actual, null::bigint, null::text;
        return;
      end if;
      v_first := coalesce(v_actual + 1, 0);
      with inserted as (
        insert into es_events (event_id, stream_id, category, revision, type, data, metadata)
        select (e.value->>'id')::uuid, p_stream, p_category, v_first + e.ordinality - 1,
               e.value->>'type', e.value->'data', e.value->'metadata'
        from jsonb_array_elements(p_events) with ordinality as e
        order by e.ordinality
        on conflict (event_id) do nothing
        returning es_events.global_position
      )
      select count(*), max(inserted.global_position) into v_inserted, v_position from inserted;
      if v_inserted < v_count then
        raise exception 'event ids already stored in %', p_stream using errcode = 'ESDUP';
      end if;
      return query select 'appended'::text, v_first + v_count - 1, v_position, pg_current_xact_id()::text;
    end
    $fn$`.execute(db);
  await sql`drop table es_streams`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists es_append(text, text, text, bigint, jsonb)`.execute(db);
  // The table as migration 0001 created it, copied on purpose: a migration is a frozen record and
  // never imports another. Its rows are derived again from the events.
  await sql`
    create table es_streams (
      stream_id text primary key,
      revision bigint not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    insert into es_streams (stream_id, revision, created_at, updated_at)
    select stream_id, max(revision), min(recorded_at), max(recorded_at) from es_events group by stream_id`.execute(db);
}
