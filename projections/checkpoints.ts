// Checkpoints of the projections, in the read-model database next to their rows.
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../src/infra/database.js';
import { formatPosition, parsePosition, type Position } from '../src/eventstore/port.js';
import '../src/tenancy/tables.js';

export interface CheckpointRow {
  name: string;
  position: Position | undefined;
  eventsProcessed: number;
  updatedAt: Date;
}

export async function ensureCheckpoint(db: Db, name: string): Promise<void> {
  await db.insertInto('projection_checkpoints').values({ name, position: null }).onConflict((oc) => oc.column('name').doNothing()).execute();
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
  const r = await sql<{ position: string | null }>`select position from projection_checkpoints where name = ${name} for update`.execute(trx);
  return r.rows[0]?.position ?? null;
}

export async function advanceCheckpoint(trx: Transaction<Database>, name: string, position: Position, count: number): Promise<void> {
  await trx.updateTable('projection_checkpoints')
    .set((eb) => ({ position: formatPosition(position), events_processed: eb('events_processed', '+', count), updated_at: new Date() }))
    .where('name', '=', name).execute();
}

export async function resetCheckpoint(trx: Transaction<Database>, name: string): Promise<void> {
  await trx.updateTable('projection_checkpoints').set({ position: null, events_processed: 0, updated_at: new Date() }).where('name', '=', name).execute();
}
