// API keys: 256 random bits, shown once, stored only as a SHA-256 hash. A key carries a visible
// prefix so it can be found by index and recognised in logs without revealing the secret part.
// SHA-256 without salt is enough here: the keys are uniformly random, so there is nothing to
// brute-force or precompute; a slow password hash would only cost latency on every request.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../infra/database.js';
import { DomainError, validationError } from '../domain/errors.js';
import { tenantOfRow, type Tenant } from './tenants.js';
import { changeTenancy, type PrincipalCache } from './principal-cache.js';
import './tables.js';

export const SCOPES = ['read', 'write', 'webhooks', 'audit'] as const;
export type Scope = (typeof SCOPES)[number];

export interface ApiKeyPrincipal {
  apiKeyId: string;
  tenantId: string;
  scopes: Scope[];
  prefix: string;
  /** The key's tenant as of this request, read with the key (most commands need its country). */
  tenant: Tenant;
}

const KEY_PATTERN = /^tvl_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$/;

const hashKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export function parseScopes(raw: string | undefined): Scope[] {
  if (raw === undefined || raw.trim() === '') return [...SCOPES];
  const scopes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || scopes.length === 0) throw validationError({ scopes: [`Unknown scope(s) ${unknown.join(', ')}; allowed: ${SCOPES.join(', ')}.`] });
  return [...new Set(scopes)] as Scope[];
}

export async function createApiKey(db: Db, input: { tenantId: string; name?: string; scopes: Scope[] }):
  Promise<{ apiKeyId: string; key: string; prefix: string; name: string; scopes: Scope[] }> {
  const tenant = await db.selectFrom('tenants').select('id').where('id', '=', input.tenantId).executeTakeFirst();
  if (!tenant) throw new DomainError('TENANT_NOT_FOUND', 404, `Tenant ${input.tenantId} was not found.`);
  const visible = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  const key = `tvl_${visible}_${randomBytes(32).toString('base64url')}`;
  const prefix = `tvl_${visible}`;
  const apiKeyId = randomUUID();
  const name = input.name?.trim() || 'default';
  await db.insertInto('api_keys').values({
    id: apiKeyId, tenant_id: input.tenantId, name, prefix, key_hash: hashKey(key), scopes: input.scopes, revoked_at: null, last_used_at: null,
  }).execute();
  return { apiKeyId, key, prefix, name, scopes: input.scopes };
}

export async function revokeApiKey(db: Db, id: string): Promise<{ apiKeyId: string; revokedAt: string }> {
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await changeTenancy(db, (trx) => trx.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', id).where('revoked_at', 'is', null)
      .returning(['id', 'revoked_at']).executeTakeFirst())
    : undefined;
  if (!row) throw new DomainError('API_KEY_NOT_FOUND', 404, `No active API key ${id}.`);
  return { apiKeyId: row.id, revokedAt: row.revoked_at!.toISOString() };
}

/** Last-used times are kept to the minute: a write per request would cost more than it tells. */
const LAST_USED_RESOLUTION_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

export async function authenticateApiKey(db: Db, presented: string, cache?: PrincipalCache): Promise<ApiKeyPrincipal | undefined> {
  const m = KEY_PATTERN.exec(presented);
  if (!m) return undefined;
  const digest = hashKey(presented);
  const cacheKey = digest.toString('base64');
  const cached = cache?.get(cacheKey);
  if (cached) {
    await touchLastUsed(db, cached.apiKeyId);
    return cached;
  }
  const readSince = cache?.begin() ?? 0;
  const prefix = `tvl_${m[1]}`;
  const row = await db.selectFrom('api_keys').innerJoin('tenants', 'tenants.id', 'api_keys.tenant_id')
    .select(['api_keys.id', 'api_keys.tenant_id', 'api_keys.key_hash', 'api_keys.scopes', 'api_keys.revoked_at',
      'tenants.name', 'tenants.country', 'tenants.base_currency', 'tenants.workflow', 'tenants.custom_fields'])
    .where('api_keys.prefix', '=', prefix).executeTakeFirst();
  // Compare hashes in constant time even for an unknown prefix, so timing tells nothing.
  const expected = row ? Buffer.from(row.key_hash) : Buffer.alloc(32);
  const ok = timingSafeEqual(expected, digest) && row !== undefined && row.revoked_at === null;
  if (!ok || !row) return undefined;
  await touchLastUsed(db, row.id);
  const tenant = tenantOfRow({ ...row, id: row.tenant_id });
  const principal: ApiKeyPrincipal = { apiKeyId: row.id, tenantId: row.tenant_id, scopes: row.scopes as Scope[], prefix, tenant };
  cache?.set(cacheKey, principal, readSince);
  return principal;
}

async function touchLastUsed(db: Db, apiKeyId: string): Promise<void> {
  const now = Date.now();
  if ((lastUsedWritten.get(apiKeyId) ?? 0) >= now - LAST_USED_RESOLUTION_MS) return;
  lastUsedWritten.set(apiKeyId, now);
  await db.updateTable('api_keys').set({ last_used_at: new Date(now) }).where('id', '=', apiKeyId).execute();
}
