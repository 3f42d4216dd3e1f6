// API keys: 256 random bits, shown once, stored only as a SHA-256 hash. A key carries a visible
// prefix so it can be found by index and recognised in logs without revealing the secret part.
// SHA-256 without salt is enough here: the keys are uniformly random, so there is nothing to
// brute-force or precompute; a slow password hash would only cost latency on every request.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../infra/database.js';
import { DomainError, validationError } from '../domain/errors.js';
import { SCOPES, type ApiKeyPrincipal, type Scope } from './model.js';
import { changeTenancy } from './principal-cache.js';

// The model's names, for the modules that already import them from here (tests, bench).
export { SCOPES, type ApiKeyPrincipal, type Scope };

/** A presented key: the visible prefix part, then the secret part. */
export const KEY_PATTERN = /^tvl_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$/;

export const hashKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export function parseScopes(raw: string | undefined): Scope[] {
  // Only an absent flag means every scope: an empty one (a script's unset variable) is a mistake.
  if (raw === undefined) return [...SCOPES];
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0)
    throw validationError({ scopes: [`Name at least one scope (${SCOPES.join(', ')}), or leave --scopes out for all.`] });
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw validationError({ scopes: [`Unknown scope(s) ${unknown.join(', ')}; allowed: ${SCOPES.join(', ')}.`] });
  return [...new Set(scopes)] as Scope[];
}

export async function createApiKey(
  db: Db,
  input: { tenantId: string; name?: string; scopes: Scope[] },
): Promise<{ apiKeyId: string; key: string; prefix: string; name: string; scopes: Scope[] }> {
  const tenant = await db.selectFrom('tenants').select('id').where('id', '=', input.tenantId).executeTakeFirst();
  if (!tenant) throw new DomainError('TENANT_NOT_FOUND', `Tenant ${input.tenantId} was not found.`);
  const visible = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  const key = `tvl_${visible}_${randomBytes(32).toString('base64url')}`;
  const prefix = `tvl_${visible}`;
  const apiKeyId = randomUUID();
  const name = input.name?.trim() || 'default';
  await db
    .insertInto('api_keys')
    .values({
      id: apiKeyId,
      tenant_id: input.tenantId,
      name,
      prefix,
      key_hash: hashKey(key),
      scopes: input.scopes,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
  return { apiKeyId, key, prefix, name, scopes: input.scopes };
}

export async function revokeApiKey(db: Db, id: string): Promise<{ apiKeyId: string; revokedAt: string }> {
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await changeTenancy(db, (trx) =>
        trx
          .updateTable('api_keys')
          .set({ revoked_at: new Date() })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .returning(['id', 'revoked_at'])
          .executeTakeFirst(),
      )
    : undefined;
  if (!row) throw new DomainError('API_KEY_NOT_FOUND', `No active API key ${id}.`);
  return { apiKeyId: row.id, revokedAt: row.revoked_at!.toISOString() };
}
