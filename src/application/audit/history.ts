// The history of one resource as an auditor reads it: every recorded event of its stream in order,
// with who acted (the API key's name looked up in the tenant's own keys), the correlation and
// causation ids, and the event's link of the hash chain checked against the event before it.
import { sql } from 'kysely';
import type { Db } from '../../infra/database.js';
import type { EventStore, RecordedEvent } from '../../eventstore/port.js';
import { checkLink, type LinkStatus } from './verify-chain.js';

export interface HistoryActor {
  apiKeyId: string | null;
  /** The key's name as it is now (keys are never deleted, only revoked); null for no key. */
  apiKeyName: string | null;
  /** The employee the command acted for, when there was one. */
  employeeId: string | null;
  /** A system process (payout run, import, migration), when no key acted. */
  system: string | null;
}

export interface HistoryItem {
  revision: number;
  type: string;
  occurredAt: string;
  recordedAt: string;
  actor: HistoryActor;
  correlationId: string;
  causationId: string;
  data: unknown;
  hash: string | null;
  previousHash: string | null;
  /** True: the link verifies; false: it is broken (tampered); null: the event predates the chain. */
  hashValid: boolean | null;
  hashStatus: LinkStatus;
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Events in the stream (its last revision + 1). */
  total: number;
  /** The revision the next page starts at; undefined after the last event. */
  nextRevision: number | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Names of the tenant's API keys among `ids` (another tenant's key id never resolves). */
async function apiKeyNames(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
  if (wanted.length === 0) return new Map();
  const r = await sql<{ id: string; name: string }>`
    select id::text as id, name from api_keys where tenant_id = ${tenantId}::uuid and id = any(${wanted}::uuid[])`.execute(db);
  return new Map(r.rows.map((k) => [k.id, k.name]));
}

/**
 * Up to `limit` events of the stream from revision `from`; undefined when the stream does not exist
 * or belongs to another tenant. The event before the page is read too, to check the first link.
 * One read serves a page that reaches the stream's end (one event more than the page is asked for:
 * when it is missing, the last event read is the head, and so the total); only a page in the middle
 * reads the head as well.
 */
export async function readHistory(
  store: EventStore,
  db: Db,
  streamId: string,
  tenantId: string,
  page: { from: number; limit: number },
): Promise<HistoryPage | undefined> {
  const withPrevious = page.from > 0 ? 1 : 0;
  const wanted = page.limit + withPrevious;
  const events = await store.readStream(streamId, { fromRevision: page.from - withPrevious, maxCount: wanted + 1 });
  const [head] =
    events.length > wanted || events.length === 0
      ? await store.readStream(streamId, { direction: 'backwards', maxCount: 1 })
      : [events[events.length - 1]!];
  // A stream is one tenant's: its head tells whose it is.
  if (!head || head.metadata.tenantId !== tenantId) return undefined;
  const total = head.revision + 1;
  if (page.from >= total) return { items: [], total, nextRevision: undefined };
  const previous: RecordedEvent | undefined = withPrevious ? events[0] : undefined;
  const shown = events.slice(withPrevious, wanted).filter((e) => e.metadata.tenantId === tenantId);
  const names = await apiKeyNames(
    db,
    tenantId,
    shown.flatMap((e) => (e.metadata.actor?.apiKeyId ? [e.metadata.actor.apiKeyId] : [])),
  );
  let before: RecordedEvent | undefined = previous;
  const items = shown.map((e): HistoryItem => {
    const check = checkLink(e, before);
    before = e;
    const { actor, hash, previousHash } = e.metadata;
    return {
      revision: e.revision,
      type: e.type,
      occurredAt: e.metadata.occurredAt,
      recordedAt: e.recordedAt.toISOString(),
      actor: {
        apiKeyId: actor?.apiKeyId ?? null,
        apiKeyName: actor?.apiKeyId ? (names.get(actor.apiKeyId.toLowerCase()) ?? null) : null,
        employeeId: actor?.employeeId ?? null,
        system: actor?.system ?? null,
      },
      correlationId: e.metadata.correlationId,
      causationId: e.metadata.causationId,
      data: e.data,
      hash: hash ?? null,
      previousHash: previousHash ?? null,
      hashValid: check.status === 'unhashed' ? null : check.status === 'valid',
      hashStatus: check.status,
    };
  });
  const last = items[items.length - 1];
  return { items, total, nextRevision: last && last.revision + 1 < total ? last.revision + 1 : undefined };
}
