// Issue 13: who holds a delivery's lease. A dispatcher claims with the process id of its liveness
// session on the server (src/webhooks/delivery/liveness.ts), which holds an advisory lock for as
// long as the dispatcher lives. When that session is gone (the process was killed, its connection
// dropped), the lock is gone with it, and another dispatcher releases the rows at once instead of
// waiting for the lease to run out. Null: no live owner to check (the embedded database, a manual
// retry), and the lease expiry alone decides, as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column lease_owner int`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop column if exists lease_owner`.execute(db);
}
