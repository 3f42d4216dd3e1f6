// The operator's tenant and API-key operations refuse what an operator gets wrong, keyed by the flag
// (outside probe, session 21): an empty --scopes created a key with every scope; a tenant or key id
// that is not a UUID answered INTERNAL_ERROR with PostgreSQL's message.
import t from 'tap';
import { startTestApp } from '../helpers/app.js';
import { operations } from '../../src/admin/operations.js';
import { DomainError } from '../../src/domain/errors.js';

t.test('tenancy operations', async (t) => {
  const app = await startTestApp(t);
  const ctx = { db: app.rt.handle.db, store: app.rt.store, runner: app.rt.runner } as Parameters<
    NonNullable<(typeof operations)[string]>
  >[0];
  const run = (name: string, args: Record<string, string | boolean>) => operations[name]!(ctx, args, () => undefined);
  const refusal = async (name: string, args: Record<string, string | boolean>): Promise<Record<string, string[]> | undefined> => {
    try {
      await run(name, args);
      return undefined;
    } catch (err) {
      if (err instanceof DomainError) return err.errors;
      throw err;
    }
  };

  t.test('--scopes: absent is every scope; empty is a mistake', async (t) => {
    const all = (await run('api-key create', { tenant: app.tenant.id, name: 'all' })) as { scopes: string[] };
    t.same(all.scopes, ['read', 'write', 'webhooks', 'audit']);
    for (const scopes of ['', ' ', ',', ' , ']) {
      t.same(
        Object.keys((await refusal('api-key create', { tenant: app.tenant.id, name: 'x', scopes })) ?? {}),
        ['scopes'],
        JSON.stringify(scopes),
      );
    }
    const read = (await run('api-key create', { tenant: app.tenant.id, name: 'r', scopes: 'read' })) as { scopes: string[] };
    t.same(read.scopes, ['read']);
  });

  t.test('ids that are not UUIDs are refused by flag, before the database', async (t) => {
    for (const [name, extra] of [
      ['api-key create', { name: 'x' }],
      ['tenant set-workflow', { none: true }],
      ['tenant set-enabled', { all: true }],
      ['tenant set-custom-fields', { definitions: '[]' }],
    ] as const) {
      t.same(await refusal(name, { tenant: 'not-a-uuid', ...extra }), { tenant: ['--tenant is a tenant id (a UUID).'] }, name);
    }
    t.same(await refusal('api-key revoke', { id: 'nope' }), { id: ['--id is an API key id (a UUID).'] });
    const upper = (await run('api-key create', { tenant: app.tenant.id.toUpperCase(), name: 'upper' })) as { apiKeyId: string };
    t.ok(upper.apiKeyId, 'an upper-case tenant id is the same tenant');
  });
});
