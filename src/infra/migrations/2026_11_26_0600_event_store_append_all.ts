// Several streams appended in one statement, all or none (issue 13): a created entry, its number's
// reservation in the tenant-year sequence and the number's claim used to be three appends, three
// round trips and three commits, with a gap in the sequence if the process died between them. As one
// call they are one of each, and a crash leaves either all three or none.
//
// The order of work keeps the feed guarantees of es_append (migration 2026_11_21_0002):
// 1. every stream's advisory lock is taken first, before anything assigns an xid, so xids are still
//    taken in lock order on every stream. The locks are taken in the order of their keys, so two
//    calls naming the same streams (or streams whose keys collide) queue instead of deadlocking;
// 2. every stream's expected revision is checked before anything is written: on a mismatch the call
//    answers one row per stream ('conflict' on those that failed, with their actual revision) and
//    writes nothing;
// 3. each stream is then appended by es_append itself (its lock is already held, its check passes
//    again), so an event id already stored still raises ESDUP and undoes the whole statement.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function es_append_all(p_streams text[], p_categories text[], p_expected_kinds text[],
                                  p_expected_revisions bigint[], p_events jsonb)
    returns table (idx int, outcome text, revision bigint, global_position bigint, tx_id text)
    language plpgsql as $fn$
    declare
      v_n int := cardinality(p_streams);
      v_actual bigint[] := array[]::bigint[];
      v_pass boolean[] := array[]::boolean[];
      v_row record;
      i int;
    begin
      perform pg_advisory_xact_lock(k.key)
      from (select distinct hashtextextended(s, 0) as key from unnest(p_streams) as s) k
      order by k.key;
      for i in 1 .. v_n loop
        v_actual := v_actual || (select max(e.revision) from es_events e where e.stream_id = p_streams[i]);
        v_pass := v_pass || (p_expected_kinds[i] = 'any'
            or (p_expected_kinds[i] = 'no_stream' and v_actual[i] is null)
            or (p_expected_kinds[i] = 'stream_exists' and v_actual[i] is not null)
            or (p_expected_kinds[i] = 'exact' and v_actual[i] is not distinct from p_expected_revisions[i]));
      end loop;
      if not (true = all(v_pass)) then
        -- 'conflict' on each stream that failed its check, 'unwritten' on the others; nothing written
        return query select g.i, case when v_pass[g.i] then 'unwritten' else 'conflict' end, v_actual[g.i], null::bigint, null::text
          from generate_series(1, v_n) as g(i);
        return;
      end if;
      for i in 1 .. v_n loop
        select * into v_row from es_append(p_streams[i], p_categories[i], p_expected_kinds[i], p_expected_revisions[i], p_events->(i - 1));
        return query select i, v_row.outcome, v_row.revision, v_row.global_position, v_row.tx_id;
      end loop;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists es_append_all(text[], text[], text[], bigint[], jsonb)`.execute(db);
}
