// Authenticating a presented API key. A key is `tvl_<visible>_<secret>`: the visible part finds
// it (by index in the database, by map key in the process's PrincipalCache), the secret part proves
// it. A cache hit compares the presented secret with the one that was verified before, in constant
// time, and hashes nothing; a miss (or a secret that differs from the cached one) reads the key and
// compares SHA-256 hashes in constant time, as every uncached request does. One authenticator per
// HTTP app, created when the app is built: it owns the record of when it last wrote each key's
// last_used_at (process state, so it lives in an instance, not in a module global).
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../infra/database.js';
import type { ApiKeyPrincipal, Scope } from './model.js';
import { hashKey, KEY_PATTERN } from './api-keys.js';
import { tenantOfRow } from './tenants.js';
import type { PrincipalCache } from './principal-cache.js';

/** A buffer of its own for a cache entry (Buffer.alloc: never a slice of Node's shared pool). */
const ownCopy = (b: Buffer): Buffer => {
  const copy = Buffer.alloc(b.length);
  b.copy(copy);
  return copy;
};

/** Characters (and latin1 bytes) of a key's secret part, fixed by KEY_PATTERN. */
const SECRET_LENGTH = 43;

/**
 * A presented key's prefix (which finds it) and secret (which proves it); undefined for any other
 * text. The pattern fixes the secret's length and alphabet (ASCII): it is SECRET_LENGTH bytes.
 */
function parseKey(presented: string): { prefix: string; secret: Buffer } | undefined {
  const m = KEY_PATTERN.exec(presented);
  return m ? { prefix: `tvl_${m[1]}`, secret: Buffer.from(m[2]!, 'latin1') } : undefined;
}

/** Last-used times are kept to the minute: a write per request would cost more than it tells. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface AuthenticatorOptions {
  /** The key hash the database stores (tests count its calls); SHA-256 by default. */
  hash?: (key: string) => Buffer;
}

export class ApiKeyAuthenticator {
  /** When this authenticator last wrote each key's last_used_at (ms since the epoch). */
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly hash: (key: string) => Buffer;

  constructor(
    private readonly db: Db,
    private readonly cache?: PrincipalCache,
    options: AuthenticatorOptions = {},
  ) {
    this.hash = options.hash ?? hashKey;
  }

  /** Cache first, then the database (the HTTP hook calls the two itself, to count only lookups). */
  async authenticate(presented: string): Promise<ApiKeyPrincipal | undefined> {
    return (await this.fromCache(presented)) ?? this.lookUp(presented);
  }

  /**
   * The principal of a key the cache has verified before, without asking the database; undefined
   * for any other key, right or wrong (the caller then counts a lookup: rate-limit.ts).
   */
  async fromCache(presented: string): Promise<ApiKeyPrincipal | undefined> {
    const key = parseKey(presented);
    const cached = key && this.cache?.get(key.prefix);
    if (!key || !cached || cached.secret.length !== SECRET_LENGTH || !timingSafeEqual(cached.secret, key.secret)) return undefined;
    await this.touchLastUsed(cached.principal.apiKeyId);
    return cached.principal;
  }

  /** The key as the database holds it, whatever the cache holds; a verified key is cached. */
  async lookUp(presented: string): Promise<ApiKeyPrincipal | undefined> {
    const { db, cache } = this;
    const key = parseKey(presented);
    if (!key) return undefined;
    const { prefix, secret } = key;
    // A wrong secret under a cached prefix is not refused here but goes the uncached way: it costs
    // the same as any wrong key, so response times do not tell which prefixes are in use.
    const digest = this.hash(presented);
    // A copy of its own for the cache: `secret` may be a slice of Node's shared buffer pool.
    const verifiedSecret = cache ? ownCopy(secret) : undefined;
    const readSince = cache?.begin() ?? 0;
    const row = await db
      .selectFrom('api_keys')
      .innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
      .select([
        'api_keys.id',
        'api_keys.tenant_id',
        'api_keys.key_hash',
        'api_keys.scopes',
        'api_keys.revoked_at',
        'tenants.name',
        'tenants.country',
        'tenants.base_currency',
        'tenants.workflow',
        'tenants.custom_fields',
        'tenants.enabled_countries',
        'tenants.enabled_currencies',
      ])
      .where('api_keys.prefix', '=', prefix)
      .executeTakeFirst();
    // Compare hashes in constant time even for an unknown prefix, so timing tells nothing.
    const expected = row ? Buffer.from(row.key_hash) : Buffer.alloc(32);
    const ok = timingSafeEqual(expected, digest) && row !== undefined && row.revoked_at === null;
    if (!ok || !row) return undefined;
    await this.touchLastUsed(row.id);
    const tenant = tenantOfRow({ ...row, id: row.tenant_id });
    const principal: ApiKeyPrincipal = { apiKeyId: row.id, tenantId: row.tenant_id, scopes: row.scopes as Scope[], prefix, tenant };
    if (cache && verifiedSecret) cache.set(prefix, { principal, secret: verifiedSecret }, readSince);
    return principal;
  }

  private async touchLastUsed(apiKeyId: string): Promise<void> {
    const now = Date.now();
    if ((this.lastUsedWritten.get(apiKeyId) ?? 0) >= now - LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWritten.set(apiKeyId, now);
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', apiKeyId)
      .execute();
  }
}
