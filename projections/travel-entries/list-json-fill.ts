// The list's stored text (list_json) is made lazily: the projection clears it on every write of a
// row (making it there cost a rebuild about two thirds of its rate, docs/benchmarks.md session 8),
// and the first list read that meets a row without text makes it from the row's document
// (list-json.ts, the same function) and stores it here, so later reads splice stored bytes.
//
// The API process writes a read-model column here, which is otherwise the projection's alone; it is
// safe because the text is a pure function of the document at one revision:
// - only a row still at the revision that was read, and still without text, is written: a newer
//   write of the projection (which cleared the text) is never overwritten with an older text;
// - rows are locked with SKIP LOCKED first, so the fill never waits on (or deadlocks with) a
//   projection batch holding them; a skipped row is simply filled by a later read;
// - one statement, outside any transaction of the caller; the tenant is part of every match;
// - a text is stamped with the shape's version (LIST_TEXT_VERSION), and only a missing or older
//   one is replaced: in a rolling deploy the newer release's texts stay, and the older processes
//   make theirs per read without storing them.
import { sql } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import { LIST_TEXT_VERSION } from './list-json.js';

const VERSION = sql.lit(LIST_TEXT_VERSION);

/** A row whose stored text this process serves: one of its own version. */
export const CURRENT_TEXT = sql<boolean>`(list_json is not null and list_json_version = ${VERSION})`;

/** A row whose text this process may store: none, or one of an older version. */
const MAY_STORE = sql<boolean>`(list_json is null or coalesce(list_json_version, 0) < ${VERSION})`;

export interface MadeText {
  id: string;
  revision: number;
  text: string;
}

/** Stores texts made by a read for rows still at the revision read and still without a text of this version or a newer one. */
export async function storeMadeTexts(db: Db, tenantId: string, made: readonly MadeText[]): Promise<void> {
  if (made.length === 0) return;
  // One json parameter: JSON.stringify of the texts is far cheaper than pg's text[] literal escaping.
  // Not spliced in verbatim (projections/json-rows.ts): a stored text holds raw control-character
  // slots for reference names (list-json.ts), so it is not JSON on its own.
  const rows = JSON.stringify(made.map((m) => ({ id: m.id, revision: m.revision, text: m.text })));
  await sql`
    update rm_travel_entries t set list_json = x.text, list_json_version = ${VERSION}
    from json_to_recordset(${rows}::json) as x(id uuid, revision int, text text)
    where t.id = x.id and t.tenant_id = ${tenantId}::uuid and t.revision = x.revision and ${MAY_STORE}
      and t.id in (
        select id from rm_travel_entries
        where tenant_id = ${tenantId}::uuid and id = any(${made.map((m) => m.id)}::uuid[]) and ${MAY_STORE}
        for update skip locked)`.execute(db);
}
