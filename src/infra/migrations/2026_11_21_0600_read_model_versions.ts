// A version per projection checkpoint, bumped by every batch and every reset and announced by
// NOTIFY read_models in the same transaction: what lets API processes cache read-model rows and
// still answer every GET as fresh as the database (src/http/read-cache.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table projection_checkpoints add column version bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table projection_checkpoints drop column version`.execute(db);
}
