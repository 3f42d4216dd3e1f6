// The one connection to the embedded database: Kysely's DatabaseConnection over a PGlite instance.
// Kysely ships a PGlite dialect only from 0.29, which needs Node 22 (docs/decisions.md); this is
// ours. A transaction runs inside PGlite's own `transaction()`, which holds the instance's lock, so
// nothing else reaching the instance (handle.pglite) can run a statement into the middle of it.
import { AbortedTransactionError, CompiledQuery, type DatabaseConnection, type QueryResult, type TransactionSettings } from 'kysely';
import type { PGlite, Transaction } from '@electric-sql/pglite';

// The command tags whose row count is a count of changed rows, as Kysely's PostgreSQL driver reads
// them: the two engines then answer `numAffectedRows` (updateTable(...).executeTakeFirst()) alike.
const COUNTS_CHANGED_ROWS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

// PGlite's TransactionAbortedError: COMMIT of a transaction an earlier failed statement aborted.
const ABORTED = '25P02';

interface OpenTransaction {
  readonly tx: Transaction;
  /** Ends the transaction: true commits, false rolls back. */
  readonly finish: (commit: boolean) => void;
  /** Settles when PGlite has committed or rolled back (rejects if COMMIT rolled back). */
  readonly closed: Promise<void>;
}

export class PGliteConnection implements DatabaseConnection {
  #open: OpenTransaction | undefined;

  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const target = this.#open?.tx ?? this.pglite;
    const { rows, command, rowCount, affectedRows } = await target.query<R>(compiledQuery.sql, [...compiledQuery.parameters], {
      rowMode: 'object',
    });
    const changed = command !== undefined && COUNTS_CHANGED_ROWS.has(command) ? (rowCount ?? affectedRows) : undefined;
    return { rows, ...(changed !== undefined ? { numAffectedRows: BigInt(changed) } : {}) };
  }

  // Nothing in the codebase streams; PGlite answers a query whole, so a stream would be a pretence.
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on the embedded database (PGlite)');
  }

  async beginTransaction(settings: TransactionSettings): Promise<void> {
    if (this.#open) throw new Error('a transaction is already open on the embedded database');
    let begun!: (tx: Transaction) => void;
    const started = new Promise<Transaction>((resolve) => (begun = resolve));
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    const closed = this.pglite.transaction(async (tx) => {
      begun(tx);
      if (!(await decided)) await tx.rollback();
    });
    // A BEGIN that fails settles `closed` (rejected) without ever starting: no hang.
    const tx = await Promise.race([started, closed.then(() => undefined)]);
    if (tx === undefined) throw new Error('the embedded database closed the transaction before it began');
    this.#open = { tx, finish, closed };
    const modes = [
      ...(settings.isolationLevel ? [`isolation level ${settings.isolationLevel}`] : []),
      ...(settings.accessMode ? [settings.accessMode] : []),
    ];
    if (modes.length === 0) return;
    try {
      // Kysely validated both values against its fixed lists, so they are safe to splice in.
      await this.executeQuery(CompiledQuery.raw(`set transaction ${modes.join(' ')}`));
    } catch (err) {
      // Kysely does not roll back a transaction whose begin failed: end it here, or it would keep
      // the instance locked for good.
      await this.rollbackTransaction();
      throw err;
    }
  }

  async commitTransaction(): Promise<void> {
    const open = this.#take();
    open.finish(true);
    try {
      await open.closed;
    } catch (err) {
      // Kysely's PostgreSQL driver answers this case with AbortedTransactionError; so do we.
      if ((err as { code?: unknown } | null)?.code === ABORTED) throw new AbortedTransactionError();
      throw err;
    }
  }

  async rollbackTransaction(): Promise<void> {
    const open = this.#take();
    open.finish(false);
    // Kysely rolls back on the way out of a failed transaction and then rethrows the failure; an
    // error from ROLLBACK itself (the instance closed meanwhile) would replace that failure.
    await open.closed.catch(() => undefined);
  }

  #take(): OpenTransaction {
    const open = this.#open;
    if (!open) throw new Error('no transaction is open on the embedded database');
    this.#open = undefined;
    return open;
  }
}
