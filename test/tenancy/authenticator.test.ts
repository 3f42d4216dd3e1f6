// The authenticator on its own: which keys it accepts, and that the once-a-minute throttle of
// last_used_at writes belongs to the authenticator instance (one per HTTP app), not to the module.
import t from 'tap';
import { sql } from 'kysely';
import { openTestDatabase } from '../helpers/db.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { createApiKey, revokeApiKey, SCOPES } from '../../src/tenancy/api-keys.js';
import { ApiKeyAuthenticator } from '../../src/tenancy/authenticator.js';

const { db } = await openTestDatabase(t);
const tenant = await createTenant(db, { name: 'Keys d.o.o.', country: 'SI' });
const lastUsed = async (id: string): Promise<Date | null> =>
  (await db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;

t.test('a valid key is its principal, with its tenant; anything else is no one', async (t) => {
  const key = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  const auth = new ApiKeyAuthenticator(db);
  t.match(await auth.authenticate(key.key), {
    apiKeyId: key.apiKeyId,
    tenantId: tenant.id,
    scopes: ['read'],
    prefix: key.prefix,
    tenant: { country: 'SI', baseCurrency: 'EUR' },
  });
  t.equal(await auth.authenticate('tvl_nonsense'), undefined, 'not a key');
  t.equal(await auth.authenticate(`${key.key.slice(0, -4)}AAAA`), undefined, 'a known prefix with a wrong secret');
  await revokeApiKey(db, key.apiKeyId);
  t.equal(await auth.authenticate(key.key), undefined, 'revoked');
});

t.test('last_used_at is written at most once a minute per authenticator', async (t) => {
  const key = await createApiKey(db, { tenantId: tenant.id, scopes: [...SCOPES] });
  const first = new ApiKeyAuthenticator(db);
  await first.authenticate(key.key);
  t.ok((await lastUsed(key.apiKeyId)) instanceof Date, 'the first use is recorded');
  await sql`update api_keys set last_used_at = null where id = ${key.apiKeyId}::uuid`.execute(db);
  await first.authenticate(key.key);
  t.equal(await lastUsed(key.apiKeyId), null, 'a second use within the minute writes nothing');
  await new ApiKeyAuthenticator(db).authenticate(key.key);
  t.ok((await lastUsed(key.apiKeyId)) instanceof Date, 'another authenticator keeps its own record');
});
