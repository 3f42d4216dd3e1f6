// Kysely's Driver for the embedded database. PGlite is one connection: whoever holds it (one query,
// or a whole transaction) holds it alone until Kysely releases it, first come first served, so a
// statement from elsewhere never lands inside somebody's transaction.
import { CompiledQuery, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';
import { Mutex, type PGlite } from '@electric-sql/pglite';
import { PGliteConnection } from './pglite-connection.js';

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  // PGlite's own export of async-mutex's Mutex (FIFO): no second copy of a lock library.
  readonly #lock = new Mutex();
  #release: (() => void) | undefined;

  constructor(private readonly pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    if (this.pglite.closed) throw new Error('the embedded database (PGlite) is already closed');
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#lock.acquire();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  beginTransaction(_: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#connection.beginTransaction(settings);
  }

  commitTransaction(): Promise<void> {
    return this.#connection.commitTransaction();
  }

  rollbackTransaction(): Promise<void> {
    return this.#connection.rollbackTransaction();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(name)}`));
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}
