// Session 22: an Idempotency-Key claim names the request that holds it (`request_id`, the
// correlationId of the events it appends) and the log's head when it was claimed (`log_position`).
// A claim whose request died unanswered (kill -9, a database lost after the commit) is then judged
// by the events after that head (src/http/idempotency/abandoned-claim.ts) instead of answering
// "still being processed" for 24 hours. Null on claims made before: their outcome is unknown.
// `claim_token`: the server's token of the request holding the claim (the request id can be the
// client's X-Request-Id), which fences a takeover and the answer. `failed_at`: the request ended
// with a server error, which may follow its commit (a lost reply, a read-your-writes wait that
// failed); a retry is judged by the log once that append can no longer commit, instead of the key
// being dropped and the request run again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys add column request_id text, add column log_position text, add column claim_token uuid, add column failed_at timestamptz`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys drop column if exists request_id, drop column if exists log_position, drop column if exists claim_token, drop column if exists failed_at`.execute(
    db,
  );
}
