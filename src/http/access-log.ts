// The access log of personal-data reads, written in group commits. Every record is stored before
// its response leaves (the request awaits it), but requests that arrive while one insert is in
// flight do not each pay an insert and a commit: they queue, and the next insert writes all of
// them as one multi-row statement. With no insert in flight a record is written at once, so a
// lone request waits no longer than before; under load, one commit serves dozens of reads
// (docs/benchmarks.md, GET travel entry).
import type { Insertable } from 'kysely';
import { columnsOf, executePrepared } from '../infra/prepared.js';
import type { Db } from '../infra/database.js';
import type { AccessLogTable } from './tables.js';

/** Rows per insert: bounds one statement's size. */
const MAX_BATCH = 500;

// Six array parameters whatever the number of rows: nothing to build per row but the arrays, and
// one fixed text, sent as a named prepared statement on a server (src/infra/prepared.ts).
const INSERT_SQL = `insert into access_log (tenant_id, api_key_id, request_id, method, resource_type, resource_id)
  select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[])`;

type AccessRecord = Insertable<AccessLogTable>;
interface Pending {
  record: AccessRecord;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class AccessLogWriter {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: Db) {}

  /** Resolves once the record is committed; rejects if its insert failed. */
  record(record: AccessRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await executePrepared(
            this.db,
            'access_log_insert',
            INSERT_SQL,
            columnsOf(
              batch.map((p) => p.record),
              ['tenant_id', 'api_key_id', 'request_id', 'method', 'resource_type', 'resource_id'],
            ),
          );
          for (const p of batch) p.resolve();
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
