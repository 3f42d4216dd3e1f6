// Read-model rows cached per API process, answered as fresh as the database. A GET served from
// here costs no statement of its own (docs/benchmarks.md, GET travel entry), yet it never shows a
// state older than the last projection commit before the request arrived:
// - every projection batch bumps its checkpoint's version and announces `schema|name|version|ids` by NOTIFY
//   in the batch's transaction (projections/checkpoints.ts): delivered at commit, in commit order;
//   the ids it names (or all rows, for `*`) are evicted here;
// - before a hit is used, a fence: the checkpoint version is read by a query sent after the request
//   arrived, and the hit waits until this process has heard that version's notification, so every
//   eviction committed before the request has been applied. Requests that arrive while a fence query
//   is in flight share the next one, so one query serves a whole burst;
// - a fill whose read overlapped an eviction is not stored (`generation`);
// - the cache works only while its LISTEN connection is up (src/infra/listener.ts notices a silent
//   loss too); a lost listener could miss evictions, so the cache empties and stays off until the
//   listener is back (it reconnects with backoff), then starts again from empty.
// On the embedded database the cache is off: one process, and reads there are cheap.
import { EventEmitter } from 'node:events';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DatabaseHandle, Db } from '../infra/database.js';
import { executePrepared } from '../infra/prepared.js';
import { ReconnectingListener } from '../infra/listener.js';
import { READ_MODELS_CHANNEL } from '../../projections/checkpoints.js';

/** Bounds memory: a travel entry response is about 3 KB, so 10,000 of them hold about 30 MB. */
const MAX_ENTRIES_PER_PROJECTION = 10_000;
/** Bounds the list pages kept (readPage): 16 MB, about 160 pages of 50 entries. */
const MAX_PAGE_BYTES_PER_PROJECTION = 16 * 1024 * 1024;
/** How long a fenced request waits for the notification it needs before reading the database. */
const FENCE_WAIT_MS = 200;

export interface CachedRead {
  /** The row's tenant: a hit for another tenant is not a hit (ids are unique, tenants are checked). */
  tenantId: string;
  etag: string;
  /** The serialized response, kept as bytes: sent as it is, with no encoding per response. */
  body: Buffer;
}

class ProjectionCache {
  readonly entries = new Map<string, CachedRead>();
  /** List pages (readPage): any announcement of the projection drops them all, whatever ids it names. */
  readonly pages = new Map<string, CachedRead>();
  pageBytes = 0;
  /** Highest version heard on the channel. */
  heard = 0n;
  /** Bumped by every eviction: a fill that started in an older generation is dropped. */
  generation = 0;
  fenceInFlight: Promise<bigint | undefined> | undefined;
  nextFence: Promise<bigint | undefined> | undefined;

  dropPages(): void {
    this.pages.clear();
    this.pageBytes = 0;
  }
}

export class ReadCache {
  private readonly caches = new Map<string, ProjectionCache>();
  private readonly heardEvents = new EventEmitter();
  private enabled = false;
  private closed = false;
  private listener: ReconnectingListener | undefined;
  /** The schema whose read models this process serves: announcements of others are ignored. */
  private schema: string | undefined;

  private constructor(
    private readonly db: Db,
    private readonly onError?: (err: unknown) => void,
  ) {
    this.heardEvents.setMaxListeners(0);
  }

  static async open(handle: DatabaseHandle, onError?: (err: unknown) => void): Promise<ReadCache> {
    const cache = new ReadCache(handle.db, onError);
    if (handle.kind === 'postgres') await cache.listen(handle.connectionString!, handle.searchPath);
    return cache;
  }

  private of(name: string): ProjectionCache {
    let c = this.caches.get(name);
    if (!c) this.caches.set(name, (c = new ProjectionCache()));
    return c;
  }

  private async listen(connectionString: string, searchPath: string | undefined): Promise<void> {
    this.listener = new ReconnectingListener({
      connectionString,
      searchPath,
      channel: READ_MODELS_CHANNEL,
      onNotification: (payload) => this.heard(payload),
      onDown: (err) => {
        if (err) this.onError?.(err);
        this.disable();
      },
      onError: (err) => this.onError?.(err),
      afterListen: async (client) => {
        this.schema = (await client.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema;
        // What was committed before LISTEN is in every read from now on; what commits after is
        // heard (an announcement that came before the schema was known is covered by this read).
        const r = await client.query<{ name: string; version: string }>('select name, version from projection_checkpoints');
        for (const row of r.rows) {
          const c = this.of(row.name);
          if (BigInt(row.version) > c.heard) c.heard = BigInt(row.version);
        }
      },
      // Back after a loss: evictions announced meanwhile were not heard, so start from nothing.
      onUp: () => {
        this.disable();
        this.enabled = !this.closed;
      },
    });
    // Not up yet: every GET reads the database until the listener connects (it keeps trying).
    await this.listener.start();
  }

  private disable(): void {
    this.enabled = false;
    for (const c of this.caches.values()) {
      c.generation++;
      c.entries.clear();
      c.dropPages();
    }
    this.heardEvents.emit('heard');
  }

  /** `schema|name|version|id,id,…` or `schema|name|version|*`. */
  private heard(payload: string): void {
    const [schema, name, version, ids] = payload.split('|');
    if (schema !== this.schema || !name || !version || ids === undefined) return;
    const c = this.of(name);
    c.generation++;
    c.dropPages();
    if (ids === '*') c.entries.clear();
    else for (const id of ids.split(',')) c.entries.delete(id.toLowerCase());
    const v = BigInt(version);
    if (v > c.heard) c.heard = v;
    this.heardEvents.emit('heard');
  }

  /**
   * Resolves true once every projection commit before this call has been heard (so the cache holds
   * nothing older than the database did when the request arrived); false when that cannot be
   * assured in time, and the caller reads the database.
   */
  private async fence(name: string): Promise<boolean> {
    const c = this.of(name);
    // A fence query already in flight may have been sent before this request arrived: wait for the next.
    if (!c.nextFence) {
      const after = c.fenceInFlight ?? Promise.resolve(undefined);
      c.nextFence = after.then(() => {
        const q = this.readVersion(name);
        c.fenceInFlight = q;
        c.nextFence = undefined; // requests from now on arrive after this query was sent
        return q;
      });
    }
    const version = await c.nextFence;
    if (version === undefined) return false;
    if (c.heard >= version) return this.enabled;
    return new Promise((resolve) => {
      const check = (): void => {
        if (!this.enabled || c.heard >= version) finish(this.enabled);
      };
      const finish = (ok: boolean): void => {
        clearTimeout(timer);
        this.heardEvents.off('heard', check);
        resolve(ok);
      };
      const timer = setTimeout(() => finish(false), FENCE_WAIT_MS);
      this.heardEvents.on('heard', check);
    });
  }

  private async readVersion(name: string): Promise<bigint | undefined> {
    try {
      const r = await executePrepared<{ version: string }>(
        this.db,
        'read_cache_fence',
        'select version from projection_checkpoints where name = $1',
        [name],
      );
      return r.rows[0] ? BigInt(r.rows[0].version) : undefined;
    } catch {
      return undefined; // the caller reads the database, which reports the problem
    }
  }

  /**
   * The cached read of row `id` of projection `name` for `tenantId`, as fresh as the database; on a
   * miss, `load` reads it, and the result is cached unless an eviction overlapped the read. Nothing
   * found (undefined) is not cached.
   */
  async read(
    name: string,
    tenantId: string,
    requestedId: string,
    load: () => Promise<CachedRead | undefined>,
  ): Promise<CachedRead | undefined> {
    if (!this.enabled) return load();
    // A UUID in any letter case names the same row; announcements name it in lower case.
    const id = requestedId.toLowerCase();
    const c = this.of(name);
    if (await this.fence(name)) {
      const hit = c.entries.get(id);
      if (hit && hit.tenantId === tenantId) return hit;
    }
    const generation = c.generation;
    const loaded = await load();
    if (loaded && loaded.tenantId === tenantId && this.enabled && generation === c.generation) {
      if (c.entries.size >= MAX_ENTRIES_PER_PROJECTION) c.entries.delete(c.entries.keys().next().value!);
      c.entries.set(id, loaded);
    }
    return loaded;
  }

  /**
   * A list page of projection `name` (issue 13), under `key` (the tenant, the list, its filters and
   * the page), with the same fence as `read`: any change the projection announces drops every
   * cached page, since a page may gain, lose or reorder rows whatever their ids.
   */
  async readPage(
    name: string,
    tenantId: string,
    key: string,
    load: () => Promise<CachedRead | undefined>,
  ): Promise<CachedRead | undefined> {
    if (!this.enabled) return load();
    const c = this.of(name);
    if (await this.fence(name)) {
      const hit = c.pages.get(key);
      if (hit && hit.tenantId === tenantId) return hit;
    }
    const generation = c.generation;
    const loaded = await load();
    if (loaded && loaded.tenantId === tenantId && this.enabled && generation === c.generation && !c.pages.has(key)) {
      // Oldest first out, by bytes: pages are large (a page of 50 entries is about 100 KB).
      for (const [k, v] of c.pages) {
        if (c.pageBytes + loaded.body.length <= MAX_PAGE_BYTES_PER_PROJECTION) break;
        c.pages.delete(k);
        c.pageBytes -= v.body.length;
      }
      if (loaded.body.length <= MAX_PAGE_BYTES_PER_PROJECTION) {
        c.pages.set(key, loaded);
        c.pageBytes += loaded.body.length;
      }
    }
    return loaded;
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
    this.closed = true;
    this.disable();
    await this.listener?.close();
  }
}

/**
 * A GET of one read-model row through the app's cache (when it has one): `load` returns the row's
 * revision ETag and its response, which is serialized once with the route's own response schema,
 * so a cached body is byte for byte what the route would send. Undefined: no such row.
 */
export async function sendCachedRead(
  app: FastifyInstance,
  reply: FastifyReply,
  projection: string,
  tenantId: string,
  id: string,
  load: () => Promise<{ etag: string; payload: unknown } | undefined>,
): Promise<boolean> {
  const loadRead = async (): Promise<CachedRead | undefined> => {
    const row = await load();
    return row && { tenantId, etag: row.etag, body: Buffer.from(String(reply.serialize(row.payload))) }; // the JSON serializer yields a string
  };
  const read = app.deps.readCache ? await app.deps.readCache.read(projection, tenantId, id, loadRead) : await loadRead();
  if (!read) return false;
  reply.header('ETag', read.etag).type('application/json; charset=utf-8').send(read.body);
  return true;
}
