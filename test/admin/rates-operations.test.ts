// `rates import` refuses an operator's bad file as a 400 keyed `file` (outside probe, session 21: a
// missing or malformed file answered INTERNAL_ERROR, with the file system's raw message), and a
// refused file imports nothing.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestApp } from '../helpers/app.js';
import { operations } from '../../src/admin/operations.js';
import { DomainError } from '../../src/domain/errors.js';

t.test('rates import refusals', async (t) => {
  const app = await startTestApp(t);
  const dir = mkdtempSync(path.join(tmpdir(), 'travelog-rates-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = { db: app.rt.handle.db, store: app.rt.store, runner: app.rt.runner } as Parameters<
    NonNullable<(typeof operations)[string]>
  >[0];
  const refusal = async (args: Record<string, string>) => {
    try {
      await operations['rates import']!(ctx, args, () => undefined);
      return undefined;
    } catch (err) {
      if (err instanceof DomainError) return { code: err.code, errors: err.errors };
      throw err;
    }
  };
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const count = async () =>
    Number(
      (
        await app.rt.handle.db
          .selectFrom('exchange_rates')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();

  const missing = await refusal({ provider: 'HNB', file: path.join(dir, 'nope.json') });
  t.same(missing, { code: 'VALIDATION_FAILED', errors: { file: [`Cannot read ${path.join(dir, 'nope.json')}: ENOENT.`] } });
  for (const [name, text] of [
    ['object.json', '{"not":"array"}'],
    ['truncated.json', '['],
    ['negative.json', '[{"datum_primjene":"2025-04-14","valuta":"GBP","srednji_tecaj":"-1,5","jedinica":1}]'],
  ] as const) {
    const r = await refusal({ provider: 'HNB', file: file(name, text) });
    t.same([r?.code, Object.keys(r?.errors ?? {})], ['VALIDATION_FAILED', ['file']], `${name}: ${JSON.stringify(r)}`);
  }
  t.equal(await count(), before, 'nothing imported');
});
