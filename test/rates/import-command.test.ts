// Importing recorded provider files into exchange_rates on the real database (PostgreSQL when
// DATABASE_URL is set, PGlite otherwise): idempotent upserts, corrections, and a malformed file
// that leaves the table untouched.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { sql } from 'kysely';
import { importRatesFile, importRatesText } from '../../src/rates/import-command.js';
import { RatesFormatError } from '../../src/rates/parse/index.js';
import { openTestDatabase } from '../helpers/db.js';
import { CNB_2023_11_13, CNB_2023_11_16, ECB_HIST, HNB_RANGE, fixturePath, readFixture } from './fixture-files.js';

// One database for the file (opening one is slow on PGlite); every subtest starts from an empty table.
const { db } = await openTestDatabase(t);
t.beforeEach(async () => {
  await sql`delete from exchange_rates`.execute(db);
});

const count = async (source?: string): Promise<number> => {
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from exchange_rates ${source ? sql`where source = ${source}` : sql``}`.execute(db);
  return Number(r.rows[0]!.n);
};

t.test('each provider file imports with its base currency, direction and units', async (t) => {
  t.same(await importRatesFile(db, 'ECB', fixturePath(ECB_HIST)), {
    provider: 'ECB',
    imported: 210,
    changed: 210,
    dates: ['2025-04-09', '2025-04-10', '2025-04-11', '2025-04-14', '2025-04-15', '2025-04-16', '2025-04-17'],
  });
  t.same(await importRatesFile(db, 'HNB', fixturePath(HNB_RANGE)), {
    provider: 'HNB',
    imported: 65,
    changed: 65,
    dates: ['2025-04-11', '2025-04-14', '2025-04-15', '2025-04-16', '2025-04-17'],
  });
  t.same(await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_13)), {
    provider: 'CNB',
    imported: 31,
    changed: 31,
    dates: ['2023-11-13'],
  });

  const rows = await sql<{
    source: string;
    rate_date: string;
    currency: string;
    rate: string;
    units: number;
    base_currency: string;
    direction: string;
  }>`
    select source, rate_date::text as rate_date, currency, rate::text as rate, units, base_currency, direction
    from exchange_rates where (source, currency) in (('ECB', 'USD'), ('HNB', 'USD'), ('CNB', 'HUF'), ('CNB', 'IDR'))
      and rate_date in ('2025-04-14', '2023-11-13') order by source, currency`.execute(db);
  t.same(
    rows.rows,
    [
      {
        source: 'CNB',
        rate_date: '2023-11-13',
        currency: 'HUF',
        rate: '6.514',
        units: 100,
        base_currency: 'CZK',
        direction: 'BasePerForeign',
      },
      {
        source: 'CNB',
        rate_date: '2023-11-13',
        currency: 'IDR',
        rate: '1.468',
        units: 1000,
        base_currency: 'CZK',
        direction: 'BasePerForeign',
      },
      {
        source: 'ECB',
        rate_date: '2025-04-14',
        currency: 'USD',
        rate: '1.1377',
        units: 1,
        base_currency: 'EUR',
        direction: 'ForeignPerBase',
      },
      {
        source: 'HNB',
        rate_date: '2025-04-14',
        currency: 'USD',
        rate: '1.1346',
        units: 1,
        base_currency: 'EUR',
        direction: 'ForeignPerBase',
      },
    ],
    'the rate is numeric text, exactly as published',
  );
});

t.test('re-importing is idempotent; an overlapping file only adds its new days', async (t) => {
  await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_13));
  const again = await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_13));
  t.same(again, { provider: 'CNB', imported: 31, changed: 0, dates: ['2023-11-13'] });
  t.equal(await count(), 31);
  const next = await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_16));
  t.equal(next.changed, 31);
  t.equal(await count('CNB'), 62);

  // The ECB history twice plus the daily file of a day it already holds.
  await importRatesFile(db, 'ECB', fixturePath(ECB_HIST));
  const daily = await importRatesText(db, 'ECB', readFixture(ECB_HIST));
  t.equal(daily.changed, 0);
  t.equal(await count('ECB'), 210);
});

t.test('a provider correction replaces the stored figure', async (t) => {
  const text = readFixture(CNB_2023_11_13);
  await importRatesText(db, 'CNB', text);
  const corrected = await importRatesText(db, 'CNB', text.replace('USA|dolar|1|USD|23,050', 'USA|dolar|1|USD|23,051'));
  t.equal(corrected.changed, 1);
  const r = await sql<{ rate: string }>`select rate::text as rate from exchange_rates where source = 'CNB' and currency = 'USD'`.execute(
    db,
  );
  t.same(r.rows, [{ rate: '23.051' }]);
  t.equal(await count(), 31);
});

t.test('a malformed file is refused whole, naming the file and line; the table is untouched', async (t) => {
  await importRatesFile(db, 'CNB', fixturePath(CNB_2023_11_13));
  const dir = mkdtempSync(join(tmpdir(), 'travelog-rates-'));
  t.teardown(() => import('node:fs').then((fs) => fs.rmSync(dir, { recursive: true, force: true })));
  const bad = join(dir, 'denni_kurz.txt');
  // Last row broken: every row before it parses, none may be stored.
  writeFileSync(bad, readFixture(CNB_2023_11_16).replace('Velká Británie|libra|1|GBP|27,945', 'Velká Británie|libra|1|GBP|27.945'));
  await t.rejects(importRatesFile(db, 'CNB', bad), {
    name: 'RatesFormatError',
    line: 33,
    message: `CNB rates in ${bad}, line 33: rate of GBP: "27.945" is not a decimal number (expected digits with an optional decimal comma)`,
  });
  t.equal(await count(), 31, 'nothing of the bad file was stored');
  await t.rejects(
    importRatesFile(db, 'ECB', fixturePath(CNB_2023_11_13)),
    RatesFormatError,
    'the wrong provider for a file is a format error',
  );
  await t.rejects(importRatesFile(db, 'HNB', join(dir, 'missing.json')), { code: 'ENOENT' });
});
