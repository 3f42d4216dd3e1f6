// A projection whose row per stream is the folded decider state plus a few query columns. A batch
// is applied with one read of the affected rows and one multi-row upsert, which is what makes
// rebuilds fast. Events at or below a row's stored revision are skipped (replay-safe). Every row
// written takes a new `sync_seq` (the table's default on insert, nextval on update): the key that
// incremental sync pages on (migration 2026_11_25_0820_list_cursors explains why it is monotonic).
import { sql, type Transaction } from 'kysely';
import type { Database } from '../src/infra/database.js';
import type { RecordedEvent } from '../src/eventstore/port.js';
import type { DomainEvent } from '../src/domain/decider.js';
import type { Projection } from './projection.js';
import { PendingWrites } from './pending-writes.js';

export interface DocumentProjectionOptions<S> {
  name: string;
  category: string;
  table: string;
  initialState: () => S;
  evolve: (state: S, event: DomainEvent) => S;
  /** The query columns of a row; undefined when the state has no row (not created yet). */
  columns: (state: S) => Record<string, ColumnValue> | undefined;
}

/** A scalar column, or a small JSON object for a jsonb column. */
export type ColumnValue = string | number | boolean | null | Readonly<Record<string, string>>;

interface StoredRow {
  id: string;
  revision: number;
  doc: unknown;
}

const idOf = (streamId: string): string => streamId.slice(streamId.indexOf('-') + 1);

/** Rows folded before they are sent (pending-writes.ts). */
const PART_ROWS = 100;

interface Upsert<S> {
  id: string;
  tenantId: string;
  revision: number;
  doc: S;
  cols: Record<string, ColumnValue>;
}

/** One stream's events folded onto its stored row: the row to write, or undefined when nothing changed. */
function foldRow<S>(
  o: DocumentProjectionOptions<S>,
  id: string,
  list: RecordedEvent[],
  prior: StoredRow | undefined,
): Upsert<S> | undefined {
  let state = prior ? (prior.doc as S) : o.initialState();
  const priorRevision = prior ? Number(prior.revision) : -1;
  let revision = priorRevision;
  for (const e of list) {
    if (e.revision <= revision) continue;
    state = o.evolve(state, { type: e.type, data: e.data });
    revision = e.revision;
  }
  const cols = o.columns(state);
  return cols && revision > priorRevision ? { id, tenantId: list[0]!.metadata.tenantId, revision, doc: state, cols } : undefined;
}

/**
 * One multi-row upsert. One jsonb parameter holds every row, spread into columns by name in the
 * database: a multi-row VALUES list of thousands of bound parameters cost more to build than to run.
 */
function upsertRows<S>(trx: Transaction<Database>, table: string, upserts: Upsert<S>[]): Promise<unknown> {
  const colNames = Object.keys(upserts[0]!.cols);
  const payload = JSON.stringify(upserts.map((u) => ({ ...u.cols, id: u.id, tenant_id: u.tenantId, revision: u.revision, doc: u.doc })));
  const columns = ['id', 'tenant_id', 'revision', 'doc', ...colNames].map((c) => sql.ref(c));
  return sql`
    insert into ${sql.table(table)} (${sql.join(columns)})
    select ${sql.join(columns)} from jsonb_populate_recordset(null::${sql.table(table)}, ${payload}::jsonb)
    on conflict (id) do update set revision = excluded.revision, doc = excluded.doc, sync_seq = nextval('rm_sync_seq'),
      ${sql.join(colNames.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}`.execute(trx);
}

export function documentProjection<S>(o: DocumentProjectionOptions<S>): Projection {
  return {
    name: o.name,
    filter: { categories: [o.category] },
    tables: [o.table],
    async apply(trx: Transaction<Database>, events: RecordedEvent[]) {
      const byId = new Map<string, RecordedEvent[]>();
      for (const e of events) {
        const id = idOf(e.streamId);
        let list = byId.get(id);
        if (!list) byId.set(id, (list = []));
        list.push(e);
      }
      const ids = [...byId.keys()];
      const stored = await sql<StoredRow>`
        select id::text as id, revision, doc from ${sql.table(o.table)} where id = any(${ids}::uuid[])`.execute(trx);
      const rows = new Map(stored.rows.map((r) => [r.id, r]));

      // Rows are folded and written in parts (pending-writes.ts): the database upserts one part while
      // the next is folded. A live batch of up to 100 changed rows is one part, as before.
      const changed: string[] = [];
      await PendingWrites.around(async (writes) => {
        let part: Upsert<S>[] = [];
        for (const [id, list] of byId) {
          const upsert = foldRow(o, id, list, rows.get(id));
          if (!upsert) continue;
          part.push(upsert);
          changed.push(id);
          if (part.length === PART_ROWS) {
            writes.send(upsertRows(trx, o.table, part));
            part = [];
            await writes.turn();
          }
        }
        if (part.length > 0) writes.send(upsertRows(trx, o.table, part));
      });
      return changed;
    },
  };
}
