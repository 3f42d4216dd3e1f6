// A read-model projection: it consumes a filtered slice of the global feed and writes its rows in
// the same transaction as its checkpoint, so every event takes effect exactly once. A projection
// never rejects a recorded fact: values it cannot use are skipped and logged, never thrown.
import type { Transaction } from 'kysely';
import type { Database } from '../src/infra/database.js';
import type { FeedFilter, RecordedEvent } from '../src/eventstore/port.js';

export interface Projection {
  readonly name: string;
  readonly filter: FeedFilter;
  /** The tables this projection owns: emptied when it is rebuilt from position zero. */
  readonly tables: readonly string[];
  /** Returns the ids of the rows it changed (announced to read caches), or nothing for "any". */
  apply(trx: Transaction<Database>, events: RecordedEvent[]): Promise<readonly string[] | void>;
}
