// Authenticated API keys, remembered so that a request need not read its key and tenant again
// (one statement of two on a GET; docs/benchmarks.md). Correctness rests on invalidation, not on
// expiry:
// - every change to keys or tenants (revocation, workflow, custom fields) goes through
//   `changeTenancy`, which sends NOTIFY tenancy_changed inside the changing transaction, so other
//   processes hear of it exactly when the change becomes visible, and clears the caches of this
//   process directly once it has committed;
// - a process caches only while its LISTEN connection is up (src/infra/listener.ts notices a silent
//   loss too): a listener that drops could miss a revocation, so the cache is cleared and stays off
//   until the listener is back (it reconnects with backoff), then starts again from empty;
// - entries also expire after TTL_MS, a backstop, and the cache holds at most MAX_ENTRIES keys.
// A read that overlaps a change must not put what it read in the cache after the change cleared
// it: a fill is stored only if no clear happened since the read began (`generation`).
// Only keys that authenticated are cached, so unknown keys cannot fill it. An entry is found by the
// key's public prefix and holds the secret part it was verified with: a hit is a map lookup and a
// constant-time comparison, no hash (docs/decisions.md, "The key cache is keyed by the public
// prefix"). The embedded database has no other process that could change it.
import { sql, type Transaction } from 'kysely';
import type { Database, DatabaseHandle, Db } from '../infra/database.js';
import type { ApiKeyPrincipal } from './model.js';
import { ReconnectingListener } from '../infra/listener.js';

export const TENANCY_CHANNEL = 'tenancy_changed';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * The caches of this process, per database, for in-process invalidation. Deliberately module
 * state, not an instance passed around: a revocation must clear every cache of its database at
 * once whichever code made it (the admin API inside a server, the CLI's direct mode, a test), and
 * that safety property must not depend on each caller remembering to pass the right cache (the
 * embedded database has no NOTIFY from another process to fall back on). Keyed weakly by the
 * database, so it holds nothing a closed database would otherwise free.
 */
const registry = new WeakMap<Db, Set<PrincipalCache>>();

/**
 * Runs a change to keys or tenants in a transaction. When `change` reports that it changed
 * something (a non-undefined result), NOTIFY tenancy_changed goes out with the commit and this
 * process's caches are cleared after it: no cache anywhere keeps the old state.
 */
export async function changeTenancy<T>(db: Db, change: (trx: Transaction<Database>) => Promise<T | undefined>): Promise<T | undefined> {
  const result = await db.transaction().execute(async (trx) => {
    const r = await change(trx);
    // The channel is database-wide; the schema tells listeners whose keys and tenants changed.
    if (r !== undefined) await sql`select pg_notify(${TENANCY_CHANNEL}, current_schema())`.execute(trx);
    return r;
  });
  if (result !== undefined) for (const cache of registry.get(db) ?? []) cache.clear();
  return result;
}

/** A key that authenticated: its principal, and the secret part of the key that was verified. */
export interface CachedKey {
  principal: ApiKeyPrincipal;
  /** The secret part's bytes; a later request must present the same bytes (authenticator.ts). */
  secret: Buffer;
}

export class PrincipalCache {
  /** By the key's public prefix (`tvl_` and the visible part), never by anything secret. */
  private readonly entries = new Map<string, { key: CachedKey; expiresAt: number }>();
  private enabled: boolean;
  private listener: ReconnectingListener | undefined;
  /** Bumped by every clear; a fill carries the generation its read started in. */
  private generation = 0;

  private constructor(
    private readonly db: Db,
    enabled: boolean,
    private readonly onError?: (err: unknown) => void,
  ) {
    this.enabled = enabled;
  }

  /** A cache for this database; on a server, caching starts only once LISTEN is in place. */
  static async open(handle: DatabaseHandle, onError?: (err: unknown) => void): Promise<PrincipalCache> {
    const cache = new PrincipalCache(handle.db, handle.kind === 'pglite', onError);
    let set = registry.get(handle.db);
    if (!set) registry.set(handle.db, (set = new Set()));
    set.add(cache);
    if (handle.kind === 'postgres') await cache.listen(handle.connectionString!, handle.searchPath);
    return cache;
  }

  private async listen(connectionString: string, searchPath: string | undefined): Promise<void> {
    let schema: string | undefined;
    this.listener = new ReconnectingListener({
      connectionString,
      searchPath,
      channel: TENANCY_CHANNEL,
      // Until the schema is known, every announcement clears (nothing is cached yet anyway).
      onNotification: (payload) => {
        if (schema === undefined || payload === schema) this.clear();
      },
      afterListen: async (client) => {
        schema = (await client.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema;
      },
      // Back after a loss: what was revoked meanwhile was not heard, so start from nothing.
      onUp: () => {
        this.clear();
        this.enabled = true;
      },
      onDown: (err) => {
        if (err) this.onError?.(err);
        this.enabled = false;
        this.clear();
      },
      onError: (err) => this.onError?.(err),
    });
    // Not up yet: every request reads its key until the listener connects (it keeps trying).
    await this.listener.start();
  }

  /** The entry of a key prefix; the caller still has to compare the secret. */
  get(prefix: string): CachedKey | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.get(prefix);
    if (!hit) return undefined;
    if (hit.expiresAt <= Date.now()) {
      this.entries.delete(prefix);
      return undefined;
    }
    return hit.key;
  }

  /** Call before reading a key from the database; pass the result to `set`. */
  begin(): number {
    return this.generation;
  }

  set(prefix: string, key: CachedKey, readSince: number): void {
    if (!this.enabled || readSince !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(prefix, { key, expiresAt: Date.now() + TTL_MS });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Whether entries are kept: only while the LISTEN session is up (see above). */
  get caching(): boolean {
    return this.enabled;
  }

  /** The server process of the LISTEN session, if one is up. */
  listenerSessionPid(): number | undefined {
    return this.listener?.sessionPid();
  }

  async close(): Promise<void> {
    this.enabled = false;
    this.clear();
    registry.get(this.db)?.delete(this);
    await this.listener?.close();
  }
}
