// Opaque list cursors (issue 11). A cursor is sealed JSON (src/infra/cursor-seal.ts: an incremental
// sync's key holds a write sequence of every tenant) holding the key of the last row of a
// page (projections/keyset.ts) and a fingerprint of the list and its filters: used with other
// filters (or on another list) it would start a page in another order or set, so that is a 400
// keyed `cursor`. `page` and `cursor` together are a 400 too; `pageSize` may change between pages.
// A cursor page answers without `page` and `total` (no count per page; docs/decisions.md).
// A nextCursor lives as long as one pass over a list; a sync's syncCursor is kept by partners from
// one sync to the next (docs/partners.md), so the sealed form and the fingerprint below are a
// contract: a change to either must keep opening the cursors issued before it.
import { createHash } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import { validationError } from '../domain/errors.js';
import type { CursorSeal } from '../infra/cursor-seal.js';
import type { PageRequest } from '../../projections/keyset.js';
import { PAGE_SIZE_DEFAULT } from './schemas/common.js';

export const CursorQuery = {
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'Opaque: the nextCursor of the previous page, with the same filters (else 400 keyed cursor). Not with page. ' +
        'A cursor page has no page number and no total.',
    }),
  ),
};

/** A list's page: the numbered shape as before, plus nextCursor (null on the last page). */
export function listPageOf<T extends TSchema>(item: T, $id: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      page: Type.Optional(Type.Integer({ description: 'The page number (absent on a cursor page).' })),
      pageSize: Type.Integer(),
      total: Type.Optional(Type.Integer({ description: 'Items matching the filters, over all pages (absent on a cursor page).' })),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass as cursor (with the same filters) for the next page; null when this is the last page.',
      }),
      syncCursor: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          description:
            "With updatedSince only: where this page ends in the order changes were recorded. Keep the last page's, and " +
            'start the next sync with it as cursor (and the same filters): that sync lists exactly what changed after this one, ' +
            'however late a change reached the lists. Null when the sync found nothing and started without a cursor, and on ' +
            'a numbered page after the first: page a sync with cursors.',
        }),
      ),
    },
    { $id },
  );
}

interface Cursor {
  v: 1;
  /** The list and its filters (fingerprintOf). */
  f: string;
  /** The key of the last row of the page before. */
  k: string[];
}

export interface Paging {
  list: string;
  /** Seals the next page's cursor, for `owner` (the tenant). */
  seal: CursorSeal;
  owner: string;
  fingerprint: string;
  pageSize: number;
  /** Absent on a cursor page. */
  page?: number;
  request: PageRequest;
  /** An incremental sync (updatedSince): listed in the order changes were recorded, answered with a syncCursor. */
  sync: boolean;
}

export interface ListQueryParams {
  cursor?: string | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

/** The list and its filters (everything but the paging parameters), independent of parameter order. */
function fingerprintOf(list: string, filters: Record<string, unknown>): string {
  const entries = Object.entries(filters)
    .filter(([k, v]) => v !== undefined && k !== 'cursor' && k !== 'page' && k !== 'pageSize')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([list, entries]))
    .digest('base64url')
    .slice(0, 16);
}

const badCursor = (why: string) => validationError({ cursor: [why] });
// Sealed for one company (cursor-seal.ts): another company's cursor does not open either.
const NOT_ISSUED = 'The cursor is not one this API issued to this company.';

function decode(cursor: string, seal: CursorSeal, owner: string): Cursor {
  let parsed: unknown;
  try {
    // Cursors issued before session 25 were plain base64url JSON, which anyone could write: no longer
    // read (a made-up key would let a tenant search the write sequence every tenant shares). A list
    // cursor lives as long as one pass over a list; a pass under way at the upgrade starts again.
    const text = seal.open(cursor, owner);
    if (text === undefined) throw badCursor(NOT_ISSUED);
    parsed = JSON.parse(text);
  } catch {
    throw badCursor(NOT_ISSUED);
  }
  const c = parsed as Partial<Cursor> | null;
  const ok =
    c !== null &&
    typeof c === 'object' &&
    c.v === 1 &&
    typeof c.f === 'string' &&
    Array.isArray(c.k) &&
    c.k.length > 0 &&
    c.k.length <= 4 &&
    c.k.every((x) => typeof x === 'string' && x.length <= 64);
  if (!ok) throw badCursor(NOT_ISSUED);
  return c as Cursor;
}

/**
 * The paging of one list request: a cursor (checked against the list and its filters), or a page
 * number. Every member of the parsed query but the paging ones is a filter; whether `page` was sent
 * is read from the URL, since the schema fills in its default.
 */
export function pagingOf(
  list: string,
  request: { url: string; query: ListQueryParams; principal?: { tenantId: string } | undefined; server: { deps: { cursors: CursorSeal } } },
): Paging {
  const seal = request.server.deps.cursors;
  const owner = request.principal?.tenantId;
  if (owner === undefined) throw new Error('a list without a principal asked for paging');
  const query = request.query as ListQueryParams & Record<string, unknown>;
  const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
  const fingerprint = fingerprintOf(list, query);
  const sync = query.updatedSince !== undefined;
  if (query.cursor !== undefined) {
    const sent = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
    if (request.url.includes('?') && sent.has('page')) throw validationError({ cursor: ['Send either cursor or page, not both.'] });
    const c = decode(query.cursor, seal, owner);
    if (c.f !== fingerprint)
      throw badCursor('The cursor belongs to another list or to other filters: send the filters it was issued with.');
    return { list, seal, owner, fingerprint, pageSize, request: { start: { after: c.k }, pageSize }, sync };
  }
  const page = query.page ?? 1;
  return { list, seal, owner, fingerprint, pageSize, page, request: { start: { offset: (page - 1) * pageSize }, pageSize }, sync };
}

export function encodeCursor(paging: Paging, key: readonly string[]): string {
  const c: Cursor = { v: 1, f: paging.fingerprint, k: [...key] };
  return paging.seal.seal(JSON.stringify(c), paging.owner);
}

/** A list query's result, as the projections' list reads give it. */
export interface ListResult {
  next: readonly string[] | null;
  /** The page's last row's key; read only in a sync (lists without updatedSince need not give it). */
  last?: readonly string[] | null | undefined;
  total?: number | undefined;
}

/**
 * Where an incremental sync's page ends: after its last row, or, on an empty page, where it
 * started (the cursor it was sent), so a sync that found nothing keeps its place. The sync key is
 * written by the projections as they apply changes (projections/keyset.ts), so a change that
 * reached the lists late still comes after it: a watermark of time could have passed it by.
 */
export function syncCursorOf(paging: Paging, result: ListResult): string | null {
  // A numbered page after the first is an offset into a moving order: a row edited while a client
  // pages by number moves behind it, and the row after it slides back onto a page already read
  // (review, session 27). Its end is no place to resume from, so a sync is paged with cursors.
  if (paging.page !== undefined && paging.page > 1) return null;
  const end = result.last ?? ('after' in paging.request.start ? paging.request.start.after : null);
  return end ? encodeCursor(paging, end) : null;
}

/** The response of a list: the items, the numbered-page members when paging by number, nextCursor (and syncCursor in a sync). */
export function listResponse<T>(paging: Paging, items: T[], result: ListResult) {
  return {
    items,
    ...(paging.page !== undefined ? { page: paging.page } : {}),
    pageSize: paging.pageSize,
    ...(paging.page !== undefined && result.total !== undefined ? { total: result.total } : {}),
    nextCursor: result.next ? encodeCursor(paging, result.next) : null,
    ...(paging.sync ? { syncCursor: syncCursorOf(paging, result) } : {}),
  };
}
