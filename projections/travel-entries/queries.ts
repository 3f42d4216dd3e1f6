// Reads of the travel-entries read model, always scoped to one tenant.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../src/infra/database.js';
import type { TravelEntry, TravelEntryState } from '../../src/domain/travel-entries/index.js';
import type { RmTravelEntriesTable } from './tables.js';
import { BY_CREATION, BY_SYNC_KEY, seekPage, type KeyOrder, type PageRequest } from '../keyset.js';
import { referenceNamesOf, referenceNamesOfIds, withReferenceNames, type EntryWithNames } from './reference-names.js';
import { cutAtSlots, fillSlots, slotIds, storedListJson } from './list-json.js';
import { CURRENT_TEXT, storeMadeTexts, type MadeText } from './list-json-fill.js';

type Stored = Selectable<RmTravelEntriesTable>;

export interface EntryRow {
  /** With the current code and name of its vehicle and cost centers (reference-names.ts). */
  entry: EntryWithNames;
  revision: number;
}

export async function getTravelEntry(db: Db, tenantId: string, id: string): Promise<EntryRow | undefined> {
  const r = await sql<Pick<Stored, 'doc' | 'revision'>>`
    select doc, revision from rm_travel_entries where tenant_id = ${tenantId}::uuid and id = ${id}::uuid`.execute(db);
  const row = r.rows[0];
  if (!row || row.doc.kind !== 'Existing') return undefined;
  const [entry] = await withReferenceNames(db, tenantId, [row.doc.entry]);
  return { entry: entry!, revision: Number(row.revision) };
}

export type ExportStatusFilter = 'notExported' | 'posted' | 'failed';

export interface EntryListQuery {
  page: PageRequest;
  status?: string | undefined;
  employeeId?: string | undefined;
  updatedSince?: string | undefined;
  readyForPayout?: boolean;
  /** Tombstones of deleted entries too (for incremental sync); the filters apply to the entry as it was deleted. */
  includeDeleted?: boolean | undefined;
  /** Entries by their export to one system: with exportStatus, in that last status (or never exported). */
  exportedTo?: string | undefined;
  exportStatus?: ExportStatusFilter | undefined;
}

/** A row of the list: a live entry, or the tombstone of a deleted one (the entry as it was deleted). */
export type ListedTravelEntry = { entry: EntryWithNames; deletedAt: null } | { entry: TravelEntry; deletedAt: string };

/** The filters of a list query as conditions, the tenant's first. */
function conditionsOf(tenantId: string, q: EntryListQuery): RawBuilder<unknown>[] {
  const where = [sql`tenant_id = ${tenantId}::uuid`];
  if (!q.includeDeleted) where.push(sql`deleted_at is null`);
  if (q.status !== undefined) where.push(sql`status = ${q.status}`);
  if (q.employeeId !== undefined) where.push(sql`employee_id = ${q.employeeId}::uuid`);
  if (q.updatedSince !== undefined) where.push(sql`edited_at >= ${q.updatedSince}::timestamptz`);
  if (q.readyForPayout) where.push(sql`ready_for_payout`);
  if (q.exportedTo !== undefined) {
    const last = sql`exports->>${q.exportedTo}`;
    if (q.exportStatus === undefined) where.push(sql`${last} is not null`);
    else if (q.exportStatus === 'notExported') where.push(sql`${last} is null`);
    else where.push(sql`${last} = ${q.exportStatus}`);
  }
  return where;
}

/**
 * A stable order, so paging never skips or repeats a row between calls: the projection's write
 * order (sync_seq, id) for incremental sync (updatedSince; an entry committed late still comes
 * after every row already paged past), creation time then id otherwise. A tombstone's edit time is
 * its deletion time, so a sync from before the deletion sees it.
 */
const orderOf = (q: EntryListQuery): KeyOrder => (q.updatedSince !== undefined ? BY_SYNC_KEY : BY_CREATION);

export async function listTravelEntryRows(
  db: Db,
  tenantId: string,
  q: EntryListQuery,
): Promise<{ items: ListedTravelEntry[]; total?: number; next: string[] | null; last: string[] | null }> {
  const where = conditionsOf(tenantId, q);
  const r = await seekPage<Pick<Stored, 'doc'>>(db, {
    table: 'rm_travel_entries',
    select: sql`doc`,
    where,
    order: orderOf(q),
    page: q.page,
  });
  const live = r.rows.flatMap((row) => (row.doc.kind === 'Existing' ? [row.doc.entry] : []));
  const referenceNames = await referenceNamesOf(db, tenantId, live);
  const items = r.rows.flatMap((row): ListedTravelEntry[] => {
    const doc = row.doc;
    if (doc.kind === 'Existing') return [{ entry: { ...doc.entry, referenceNames }, deletedAt: null }];
    if (doc.kind === 'Deleted') return [{ entry: doc.entry, deletedAt: doc.deletedAt }];
    return [];
  });
  return { items, next: r.next, last: r.last, ...(r.total !== undefined ? { total: r.total } : {}) };
}

/**
 * The same page as listTravelEntryRows, each item as the JSON text GET of it answers (a tombstone's
 * as DELETE does), spliced from the stored text (list-json.ts) and the current reference names: no
 * document is parsed or serialised. A row without stored text (written since the last list read, or
 * before the text existed) has its text made from its document here (only `doc` of such rows is
 * read) and stored for the next read (list-json-fill.ts).
 */
export async function listTravelEntryJson(
  db: Db,
  tenantId: string,
  q: EntryListQuery,
  onFillError: (err: unknown) => void = () => {},
): Promise<{ items: string[]; total?: number; next: string[] | null; last: string[] | null }> {
  const where = conditionsOf(tenantId, q);
  const r = await seekPage<{ id: string; revision: number; list_json: string | null; doc: TravelEntryState | null }>(db, {
    table: 'rm_travel_entries',
    // A text of another version (an older release's, or a newer one's in a rolling deploy) is not
    // this process's shape: the row's document is read instead and the text made again.
    select: sql`id::text as id, revision, case when ${CURRENT_TEXT} then list_json end as list_json,
      case when ${CURRENT_TEXT} then null else doc end as doc`,
    where,
    order: orderOf(q),
    page: q.page,
  });
  const made: MadeText[] = [];
  const cuts = r.rows.flatMap((row) => {
    let text = row.list_json;
    if (text === null && row.doc) {
      text = storedListJson(row.doc);
      if (text !== null) made.push({ id: row.id, revision: Number(row.revision), text });
    }
    return text === null ? [] : [cutAtSlots(text)];
  });
  const ids = slotIds(cuts);
  const [names] = await Promise.all([
    referenceNamesOfIds(db, tenantId, ids.vehicleIds, ids.costCenterIds),
    // Storing the made texts is best effort: they are a pure function of the document, so a failed
    // store (a lock or statement timeout) loses nothing, the page answers with the texts made here,
    // and a later read stores them. The caller logs it.
    storeMadeTexts(db, tenantId, made).catch(onFillError),
  ]);
  return {
    items: cuts.map((parts) => fillSlots(parts, names)),
    next: r.next,
    last: r.last,
    ...(r.total !== undefined ? { total: r.total } : {}),
  };
}

/** Live entries only (deleted ones never). */
export async function listTravelEntries(
  db: Db,
  tenantId: string,
  q: Omit<EntryListQuery, 'includeDeleted'>,
): Promise<{ items: EntryWithNames[]; total?: number; next: string[] | null; last: string[] | null }> {
  const r = await listTravelEntryRows(db, tenantId, { ...q, includeDeleted: false });
  return { ...r, items: r.items.flatMap((i) => (i.deletedAt === null ? [i.entry] : [])) };
}
