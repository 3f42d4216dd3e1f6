// The authenticator with the process's key cache: a hit costs no hash of the key (counted through
// an injected hash function, not timed), a wrong secret under a cached prefix is refused, and
// changes to keys and tenants still take effect at once.
import t from 'tap';
import { openTestDatabase } from '../helpers/db.js';
import { createTenant, setWorkflow } from '../../src/tenancy/tenants.js';
import { createApiKey, hashKey, revokeApiKey } from '../../src/tenancy/api-keys.js';
import { ApiKeyAuthenticator } from '../../src/tenancy/authenticator.js';
import { PrincipalCache } from '../../src/tenancy/principal-cache.js';

const handle = await openTestDatabase(t);
const { db } = handle;
const cache = await PrincipalCache.open(handle);
t.teardown(() => cache.close());
// On PostgreSQL the cache starts once its LISTEN session is up.
for (const deadline = Date.now() + 20_000; !cache.caching && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));

const tenant = await createTenant(db, { name: 'Cache d.o.o.', country: 'HR' });

/** An authenticator on the shared cache whose hash calls are counted. */
function counted(): { auth: ApiKeyAuthenticator; hashes: () => number } {
  let calls = 0;
  const auth = new ApiKeyAuthenticator(db, cache, {
    hash: (key) => {
      calls++;
      return hashKey(key);
    },
  });
  return { auth, hashes: () => calls };
}

/** The same key with its last secret character changed (still a well-formed key). */
const wrongSecret = (key: string): string => `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;

t.test('the cache is on', async (t) => {
  t.ok(cache.caching, 'caching (PGlite at once, PostgreSQL once LISTEN is up)');
});

t.test('a hit hashes nothing; a miss hashes once', async (t) => {
  const key = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  const { auth, hashes } = counted();
  t.match(await auth.authenticate(key.key), { apiKeyId: key.apiKeyId, tenantId: tenant.id, prefix: key.prefix });
  t.equal(hashes(), 1, 'the first use reads the key and compares its hash');
  t.ok(cache.get(key.prefix), 'the key is cached under its public prefix');
  for (let i = 0; i < 5; i++) t.match(await auth.authenticate(key.key), { apiKeyId: key.apiKeyId });
  t.equal(hashes(), 1, 'five hits, no further hash');
});

t.test('a wrong secret under a cached prefix is refused, and the right key stays cached', async (t) => {
  const key = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  const { auth, hashes } = counted();
  t.ok(await auth.authenticate(key.key), 'cached');
  const wrong = wrongSecret(key.key);
  t.not(wrong, key.key);
  t.equal(await auth.authenticate(wrong), undefined, 'one character off');
  t.equal(await auth.authenticate(`${key.prefix}_${'A'.repeat(43)}`), undefined, 'another secret of the right length');
  t.equal(hashes(), 3, 'a wrong secret goes the uncached way (read and hash), like any wrong key');
  t.match(await auth.authenticate(key.key), { apiKeyId: key.apiKeyId }, 'the right key still works');
  t.equal(hashes(), 3, '...from the cache: the wrong ones did not evict it');
  t.equal(await auth.authenticate(`${key.key}A`), undefined, 'a longer secret is not a key');
  t.equal(await auth.authenticate(key.key.slice(0, -1)), undefined, 'a shorter one neither');
});

t.test('keys first used at the same time are each cached with their own secret', async (t) => {
  const a = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  const b = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  const { auth, hashes } = counted();
  const [pa, pb] = await Promise.all([auth.authenticate(a.key), auth.authenticate(b.key)]);
  t.same([pa?.apiKeyId, pb?.apiKeyId], [a.apiKeyId, b.apiKeyId]);
  const secretOf = (key: string): string => key.slice(-43);
  t.equal(await auth.authenticate(`${a.prefix}_${secretOf(b.key)}`), undefined, "a's prefix with b's secret");
  t.equal(await auth.authenticate(`${b.prefix}_${secretOf(a.key)}`), undefined, "b's prefix with a's secret");
  const before = hashes();
  t.match(await auth.authenticate(a.key), { apiKeyId: a.apiKeyId });
  t.match(await auth.authenticate(b.key), { apiKeyId: b.apiKeyId });
  t.equal(hashes(), before, 'both from the cache');
});

t.test('a revocation takes effect on a cached key at once', async (t) => {
  const key = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  const { auth, hashes } = counted();
  t.ok(await auth.authenticate(key.key));
  t.ok(await auth.authenticate(key.key));
  t.equal(hashes(), 1, 'served from the cache');
  await revokeApiKey(db, key.apiKeyId);
  t.equal(cache.get(key.prefix), undefined, 'the revocation cleared the cache');
  t.equal(await auth.authenticate(key.key), undefined, 'revoked');
  t.equal(hashes(), 2, 'read again');
});

t.test('a tenant change reaches a cached principal', async (t) => {
  const other = await createTenant(db, { name: 'Workflow d.o.o.', country: 'SI' });
  const key = await createApiKey(db, { tenantId: other.id, scopes: ['read'] });
  const { auth } = counted();
  t.equal((await auth.authenticate(key.key))?.tenant.workflow, null);
  await setWorkflow(db, other.id, { steps: [{ approverIds: ['6f1c1f4e-0f2a-4b6e-9c1d-2b3a4c5d6e7f'] }] });
  t.equal((await auth.authenticate(key.key))?.tenant.workflow?.steps.length, 1, 'the new workflow is seen');
});

t.test('with caching off every request hashes its key', async (t) => {
  const off = await PrincipalCache.open(handle);
  await off.close(); // closed: off for good
  const key = await createApiKey(db, { tenantId: tenant.id, scopes: ['read'] });
  let calls = 0;
  const auth = new ApiKeyAuthenticator(db, off, { hash: (k) => (calls++, hashKey(k)) });
  for (let i = 0; i < 3; i++) t.ok(await auth.authenticate(key.key));
  t.equal(calls, 3);
  t.equal(off.get(key.prefix), undefined);
});
