// Authenticating a presented API key: found by its visible prefix, compared by hash in constant
// time, remembered in the process's PrincipalCache when there is one. One authenticator per HTTP
// app, created when the app is built: it owns the record of when it last wrote each key's
// last_used_at (process state, so it lives in an instance, not in a module global).
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../infra/database.js';
import type { ApiKeyPrincipal, Scope } from './model.js';
import { hashKey, KEY_PATTERN } from './api-keys.js';
import { tenantOfRow } from './tenants.js';
import type { PrincipalCache } from './principal-cache.js';

/** Last-used times are kept to the minute: a write per request would cost more than it tells. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class ApiKeyAuthenticator {
  /** When this authenticator last wrote each key's last_used_at (ms since the epoch). */
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly cache?: PrincipalCache,
  ) {}

  async authenticate(presented: string): Promise<ApiKeyPrincipal | undefined> {
    const { db, cache } = this;
    const m = KEY_PATTERN.exec(presented);
    if (!m) return undefined;
    const digest = hashKey(presented);
    const cacheKey = digest.toString('base64');
    const cached = cache?.get(cacheKey);
    if (cached) {
      await this.touchLastUsed(cached.apiKeyId);
      return cached;
    }
    const readSince = cache?.begin() ?? 0;
    const prefix = `tvl_${m[1]}`;
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
    cache?.set(cacheKey, principal, readSince);
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
