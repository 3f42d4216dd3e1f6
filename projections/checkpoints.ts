// Checkpoints of the projections, in the read-model database next to their rows.
import { sql, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Database, Db } from '../src/infra/database.js';
import { formatPosition, parsePosition, type Position } from '../src/eventstore/port.js';
import type { ProjectionCheckpointsTable } from './tables.js';

export interface CheckpointRow {
  name: string;
  position: Position | undefined;
  eventsProcessed: number;
  updatedAt: Date;
}

export async function ensureCheckpoint(db: Db, name: string): Promise<void> {
  await db
    .insertInto('projection_checkpoints')
    .values({ name, position: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function readCheckpoints(db: Db): Promise<CheckpointRow[]> {
  const rows = await db.selectFrom('projection_checkpoints').selectAll().orderBy('name').execute();
  return rows.map((r) => ({
    name: r.name,
    position: r.position ? parsePosition(r.position) : undefined,
    eventsProcessed: Number(r.events_processed),
    updatedAt: r.updated_at,
  }));
}

/** Locks the checkpoint row for this batch; returns the stored position as a string (or null). */
export async function lockCheckpoint(trx: Transaction<Database>, name: string): Promise<string | null> {
  const r = await sql<
    Pick<Selectable<ProjectionCheckpointsTable>, 'position'>
  >`select position from projection_checkpoints where name = ${name} for update`.execute(trx);
  return r.rows[0]?.position ?? null;
}

/** The channel on which every checkpoint move is announced (see src/http/read-cache.ts). */
export const READ_MODELS_CHANNEL = 'read_models';
/** Beyond this many changed ids, a notification says "everything" (NOTIFY payloads stay small). */
export const MAX_ANNOUNCED_IDS = 100;

/**
 * Moves the checkpoint, bumps its version and announces `schema|name|version|ids` (or `*` for all
 * rows), in one statement of the batch's transaction: the NOTIFY is delivered when the rows commit.
 * The channel is database-wide, so the schema tells listeners whose read models changed.
 */
export async function advanceCheckpoint(
  trx: Transaction<Database>,
  name: string,
  position: Position,
  count: number,
  changed?: readonly string[],
): Promise<void> {
  const ids = changed && changed.length <= MAX_ANNOUNCED_IDS ? changed.join(',') : '*';
  await moveAndAnnounce(trx, name, sql`position = ${formatPosition(position)}, events_processed = events_processed + ${count}`, ids);
}

/** Back to the start (a rebuild): every row may have changed. */
export async function resetCheckpoint(trx: Transaction<Database>, name: string): Promise<void> {
  await moveAndAnnounce(trx, name, sql`position = null, events_processed = 0`, '*');
}

async function moveAndAnnounce(trx: Transaction<Database>, name: string, set: RawBuilder<unknown>, ids: string): Promise<void> {
  await sql`
    with moved as (
      update projection_checkpoints set ${set}, version = version + 1, updated_at = now()
      where name = ${name} returning version)
    select pg_notify(${READ_MODELS_CHANNEL}, current_schema() || '|' || ${name} || '|' || moved.version || '|' || ${ids}) from moved`.execute(
    trx,
  );
}
