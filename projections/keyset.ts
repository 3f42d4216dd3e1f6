// Keyset (seek) pagination, shared by every list: a page is the rows after a key in a stable order,
// never an offset, when the client pages with a cursor (src/http/cursor.ts). Page numbers keep
// working through the same query with an offset. The key columns are read back as text (so no
// precision is lost on the way through JSON) and compared with one row comparison, which the
// (tenant_id, key..., id) indexes answer by seeking.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../src/infra/database.js';
import { validationError } from '../src/domain/errors.js';
import { isDate } from '../src/domain/shared/dates.js';

export interface KeyColumn {
  /** A column of the table. */
  column: string;
  type: 'timestamptz' | 'bigint' | 'uuid';
}

/** A total order: the last column is unique (the id). Every column runs in the same direction. */
export interface KeyOrder {
  columns: readonly KeyColumn[];
  descending?: boolean;
}

/** Where a page starts: after the row with key `after` (a cursor), or at an offset (page numbers). */
export type PageStart = { after: readonly string[] } | { offset: number };

export interface PageRequest {
  start: PageStart;
  pageSize: number;
}

/** The creation order of the document read models. */
export const BY_CREATION: KeyOrder = {
  columns: [
    { column: 'created_at', type: 'timestamptz' },
    { column: 'id', type: 'uuid' },
  ],
};

/** Incremental sync: the order in which the projection wrote the rows (see document-projection.ts). */
export const BY_SYNC_KEY: KeyOrder = {
  columns: [
    { column: 'sync_seq', type: 'bigint' },
    { column: 'id', type: 'uuid' },
  ],
};

// What PostgreSQL writes for a timestamptz key (`2026-03-02 08:00:00.123+00`), split so its fields
// can be checked against the calendar: a key of the right shape but out of range (`2026-13-45`,
// `25:00`, an offset beyond PostgreSQL's ±15:59) would otherwise reach the database as a 22008.
const TIMESTAMPTZ = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:[+-](\d{2})(?::?(\d{2}))?(?::?(\d{2}))?|Z)?$/;

function isTimestamptzKey(value: string): boolean {
  const m = TIMESTAMPTZ.exec(value);
  if (m === null || !isDate(m[1]!)) return false;
  const [hour, minute, second, offsetHours, ...offsetRest] = m.slice(2).map((x) => (x === undefined ? 0 : Number(x)));
  return hour! <= 23 && minute! <= 59 && second! <= 59 && offsetHours! <= 15 && offsetRest.every((x) => x <= 59);
}

const VALID: Record<KeyColumn['type'], (value: string) => boolean> = {
  timestamptz: isTimestamptzKey,
  bigint: (value) => /^-?\d{1,18}$/.test(value),
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
};

/** A cursor's key that does not fit the order is a client mistake (400 `cursor`), never a database error. */
function checkKey(order: KeyOrder, after: readonly string[]): void {
  const fits = after.length === order.columns.length && order.columns.every((c, i) => VALID[c.type](after[i]!));
  if (!fits) throw validationError({ cursor: ['The cursor is not valid for this list.'] });
}

/**
 * A key column, qualified by its table when one is given: in ORDER BY a bare name means an output
 * column first, and a select list may alias `id::text as id`, which would sort as text.
 */
const col = (c: KeyColumn, table?: string): RawBuilder<unknown> => (table ? sql.ref(`${table}.${c.column}`) : sql.ref(c.column));

export function orderBy(order: KeyOrder, table?: string): RawBuilder<unknown> {
  const dir = sql.raw(order.descending ? 'desc' : 'asc');
  return sql.join(order.columns.map((c) => sql`${col(c, table)} ${dir}`));
}

/** The row comparison that starts a page after `after`, in the order's direction. */
export function afterKey(order: KeyOrder, after: readonly string[], table?: string): RawBuilder<unknown> {
  checkKey(order, after);
  const values = order.columns.map((c, i) => sql`${after[i]!}::${sql.raw(c.type)}`);
  const cmp = sql.raw(order.descending ? '<' : '>');
  return sql`(${sql.join(order.columns.map((c) => col(c, table)))}) ${cmp} (${sql.join(values)})`;
}

/** The key columns as text, selected as k0, k1, ... beside the row. */
export function keySelect(order: KeyOrder, table?: string): RawBuilder<unknown> {
  return sql.join(order.columns.map((c, i) => sql`${col(c, table)}::text as ${sql.ref(`k${i}`)}`));
}

export type Keyed = Record<`k${number}`, string>;

export const keyOfRow = (order: KeyOrder, row: Keyed): string[] => order.columns.map((_, i) => row[`k${i}`]!);

export interface SeekPage<R> {
  rows: R[];
  /** The key of the last row when more rows follow; null at the end. */
  next: string[] | null;
  /** The key of the page's last row, whether or not more follow; null for an empty page. */
  last: string[] | null;
  /** Rows matching the filters over all pages: counted only when paging by number. */
  total?: number;
}

/**
 * One page of `select <select> from <table> where <conds>` in `order`: pageSize + 1 rows are read
 * to know whether another page follows. The count runs only for numbered pages (a cursor page
 * answers without one: a count on every page of a sync costs a scan each).
 */
export async function seekPage<R>(
  db: Db,
  q: { table: string; select: RawBuilder<unknown>; where: RawBuilder<unknown>[]; order: KeyOrder; page: PageRequest },
): Promise<SeekPage<R>> {
  const { start, pageSize } = q.page;
  const conds = 'after' in start ? [...q.where, afterKey(q.order, start.after, q.table)] : q.where;
  const where = sql.join(conds, sql` and `);
  const offset = 'offset' in start ? start.offset : 0;
  const [rows, count] = await Promise.all([
    sql<R & Keyed>`select ${q.select}, ${keySelect(q.order, q.table)} from ${sql.table(q.table)} where ${where}
      order by ${orderBy(q.order, q.table)} limit ${pageSize + 1} offset ${offset}`.execute(db),
    'offset' in start
      ? sql<{ n: number }>`select count(*)::int as n from ${sql.table(q.table)} where ${where}`.execute(db)
      : Promise.resolve(undefined),
  ]);
  const more = rows.rows.length > pageSize;
  const page = more ? rows.rows.slice(0, pageSize) : rows.rows;
  return {
    rows: page,
    next: more ? keyOfRow(q.order, page[page.length - 1]!) : null,
    last: page.length > 0 ? keyOfRow(q.order, page[page.length - 1]!) : null,
    ...(count ? { total: Number(count.rows[0]?.n ?? 0) } : {}),
  };
}
