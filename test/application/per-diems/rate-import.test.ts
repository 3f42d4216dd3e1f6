// Importing a foreign per-diem rate table on a real event store: one event per accepted file, read
// back by PerDiemRateTables into the engine's tables; a bad file is refused whole with its line
// numbers and records nothing; a new validFrom takes over from that date.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importPerDiemRateTable } from '../../../src/application/per-diems/rate-import.js';
import { PerDiemRateTables } from '../../../src/application/per-diems/rate-tables.js';
import { parseRateCsv } from '../../../src/application/per-diems/rate-csv.js';
import { shippedRateVersions } from '../../../src/application/per-diems/shipped-rates.js';
import { operations, type OperationContext } from '../../../src/admin/operations.js';
import { DomainError } from '../../../src/domain/errors.js';
import { foreignRateOn } from '../../../src/domain/per-diems/rate-table.js';
import { PLATFORM_TENANT_ID, rateTableStream } from '../../../src/domain/per-diem-rates/index.js';
import { createPostgresEventStore } from '../../../src/eventstore/postgres/index.js';
import { openTestDatabase } from '../../helpers/db.js';

const HEADER = 'law,validFrom,validTo,countryCode,countryName,rate,currency,source';
const csv = (...lines: string[]): string => [HEADER, ...lines].join('\n') + '\n';

async function refused(t: Test, p: Promise<unknown>): Promise<Record<string, string[]>> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(err instanceof DomainError, 'refused with a DomainError');
  t.equal((err as DomainError).code, 'VALIDATION_FAILED');
  return (err as DomainError).errors ?? {};
}

t.test('the CSV keeps file lines; the shipped file still parses', async (t) => {
  const rows = parseRateCsv(`\uFEFF${HEADER}\r\nHR,2025-01-01,,DE,N,70,EUR,s\r\n\r\nHR,2025-01-01,,AT,A,70,EUR,s\r\n`);
  t.same(
    rows.map((r) => [r.line, r.countryCode]),
    [
      [2, 'DE'],
      [4, 'AT'],
    ],
  );
  t.ok(shippedRateVersions().length >= 7, 'the shipped versions are read');
});

t.test('rate-table imports', async (t) => {
  const handle = await openTestDatabase(t);
  const store = createPostgresEventStore(handle);
  t.teardown(() => store.close());
  const tables = new PerDiemRateTables(store);

  t.test('a valid import records one event; the tables then answer the rate', async (t) => {
    t.equal(foreignRateOn(await tables.current(), 'HR', 'DE', '2025-01-10'), null, 'HR DE is not in the shipped 2024 table');
    const result = await importPerDiemRateTable(store, {
      law: 'HR',
      validFrom: '2024-02-08',
      complete: false,
      fileName: 'hr-2024.csv',
      text: csv('HR,2024-02-08,,DE,Savezna Republika Njemačka,70,EUR,hr-nn-2024', 'HR,2024-02-08,,FR,Francuska,70.50,EUR,hr-nn-2024'),
    });
    t.same(result, { law: 'HR', validFrom: '2024-02-08', validTo: null, complete: false, rows: 2, recorded: true, revision: 0 });
    const events = await store.readStream(rateTableStream('HR'));
    t.equal(events.length, 1);
    t.match(events[0], {
      type: 'PerDiemRatesImported',
      metadata: { tenantId: PLATFORM_TENANT_ID, actor: { system: 'cli' } },
      data: { law: 'HR', validFrom: '2024-02-08', validTo: null, complete: false, fileName: 'hr-2024.csv' },
    });

    t.equal(foreignRateOn(await tables.current(), 'HR', 'DE', '2025-01-10'), null, 'the cached tables are at most 1 s old');
    tables.invalidate();
    const now = await tables.current();
    t.match(foreignRateOn(now, 'HR', 'DE', '2025-01-10'), { rate: '70', currency: 'EUR', origin: 'import r0', validFrom: '2024-02-08' });
    t.match(foreignRateOn(now, 'HR', 'AT', '2025-01-10'), { origin: 'shipped' }, 'the shipped rows of the version stay');
    t.equal(now.revisions.HR, 0);
    t.equal(foreignRateOn(now, 'HR', 'JP', '2025-01-10'), null, 'not complete: the * row does not apply');

    const again = await importPerDiemRateTable(store, {
      law: 'HR',
      validFrom: '2024-02-08',
      complete: false,
      fileName: 'again.csv',
      text: csv('HR,2024-02-08,,DE,Savezna Republika Njemačka,70,EUR,hr-nn-2024'),
    });
    t.match(again, { recorded: false, revision: 0 }, 'the same rows again record nothing');
  });

  t.test('an invalid file is refused whole with its line numbers and records nothing', async (t) => {
    const before = (await store.readStream(rateTableStream('SI'))).length;
    const errors = await refused(
      t,
      importPerDiemRateTable(store, {
        law: 'SI',
        validFrom: '2025-01-01',
        complete: true,
        fileName: 'si.csv',
        text: csv(
          'SI,2025-01-01,,DE,Nemčija,70,EUR,si-ul',
          'SI,2025-01-01,,AT,Avstrija,70,EUR,si-ul',
          'HR,2025-01-01,,XX,Nowhere,70.123,EURO,si-ul',
          'SI,,,FR,Francija,70,EUR,si-ul',
          'SI,2025-01-01,,DE,Nemčija,71,EUR,si-ul',
        ),
      }),
    );
    t.same(Object.keys(errors).sort(), ['line 4', 'line 5', 'line 6']);
    t.match(errors['line 4'], [/^law: must be SI/, /^countryCode: /, /^rate: At most 2/, /^currency: /]);
    t.match(errors['line 5'], [/^validFrom: must not be empty/]);
    t.match(errors['line 6'], [/^countryCode: DE is already on line 2/]);
    t.equal((await store.readStream(rateTableStream('SI'))).length, before, 'nothing appended');

    const header = await refused(
      t,
      importPerDiemRateTable(store, { law: 'SI', validFrom: '2025-01-01', complete: false, fileName: 'x', text: 'law,from\nSI,1\n' }),
    );
    t.match(header, { 'line 1': [/header must be .*missing validFrom/] });
    const cells = await refused(
      t,
      importPerDiemRateTable(store, {
        law: 'SI',
        validFrom: '2025-01-01',
        complete: false,
        fileName: 'x',
        text: csv('SI,2025-01-01,,DE,N,70,EUR,s', 'SI,2025-01-01'),
      }),
    );
    t.same(cells, { 'line 3': ["Has 2 cells; every row has the header's 8."] });
    t.equal((await store.readStream(rateTableStream('SI'))).length, before, 'still nothing appended');
  });

  t.test('a line of the wrong length or a stray quote does not hide the other lines', async (t) => {
    const si = (text: string): Promise<unknown> =>
      importPerDiemRateTable(store, { law: 'SI', validFrom: '2025-01-01', complete: false, fileName: 'x', text });
    const before = (await store.readStream(rateTableStream('SI'))).length;
    const lengths = await refused(
      t,
      si(
        csv('SI,2025-01-01,,DE,N,70,EUR,s', 'SI,2025-01-01,,AT,A,70', 'SI,2025-01-01,,FR,F,7O,EUR,s', 'SI,2025-01-01,,IT,I,70,EUR,s,extra'),
      ),
    );
    t.same(Object.keys(lengths), ['line 3', 'line 4', 'line 5'], 'every line in file order, the rows after a short one judged too');
    t.match(lengths, { 'line 3': [/Has 6 cells/], 'line 4': [/^rate: Must be a decimal/], 'line 5': [/Has 9 cells/] });

    const quote = await refused(
      t,
      si(csv('SI,2025-01-01,,DE,N,-1,EUR,s', 'SI,2025-01-01,,A"T,A,70,EUR,s', 'SI,2025-01-01,,FR,F,70,EUR,s')),
    );
    t.same(Object.keys(quote), ['line 2', 'line 3'], 'the line before the quote is judged; the quote ends the reading');
    t.match(quote, { 'line 2': [/^rate: Must be greater than 0/], 'line 3': [/Invalid Opening Quote.*The lines after it were not read/] });

    t.same(await refused(t, si('')), {
      file: [
        'The file is empty: it needs the header (law,validFrom,validTo,countryCode,countryName,rate,currency,source) and one row per country.',
      ],
    });
    t.same(await refused(t, si('\uFEFF\r\n\r\n')), await refused(t, si('')), 'a BOM and blank lines are empty too');
    t.same(await refused(t, si(csv())), { file: ['The file has a header and no rows: one row per country is needed.'] });

    const large = await refused(t, si(csv('SI,2025-01-01,,DE,N,1000000.01,EUR,s', 'SI,2025-01-01,,AT,A,1000000,EUR,s')));
    t.same(Object.keys(large), ['line 2'], 'a rate above 1,000,000 a day is refused; 1,000,000 is the bound');
    t.match(large['line 2'], [/^rate: At most 1000000 a day/]);
    t.equal((await store.readStream(rateTableStream('SI'))).length, before, 'nothing appended');
  });

  t.test('a new validFrom takes over from that date; a bounded period is not overlapped', async (t) => {
    const r = await importPerDiemRateTable(store, {
      law: 'HR',
      validFrom: '2025-01-01',
      complete: true,
      fileName: 'hr-2025.csv',
      text: csv('HR,2025-01-01,2025-12-31,DE,Njemačka,80,EUR,hr-nn-2025', 'HR,2025-01-01,2025-12-31,*,ostale države,55,USD,hr-nn-2025'),
    });
    t.match(r, { recorded: true, revision: 1, validTo: '2025-12-31', complete: true });
    tables.invalidate();
    const now = await tables.current();
    t.match(foreignRateOn(now, 'HR', 'DE', '2024-12-31'), { rate: '70', validFrom: '2024-02-08' });
    t.match(foreignRateOn(now, 'HR', 'DE', '2025-01-01'), { rate: '80', validFrom: '2025-01-01', origin: 'import r1' });
    t.match(foreignRateOn(now, 'HR', 'JP', '2025-06-01'), { countryCode: '*', rate: '55', currency: 'USD' }, 'complete: the * row applies');
    t.match(
      foreignRateOn(now, 'HR', 'DE', '2026-01-01'),
      { rate: '70', validFrom: '2024-02-08' },
      'after its validTo the open 2024 version is in force again',
    );

    const overlap = await refused(
      t,
      importPerDiemRateTable(store, {
        law: 'HR',
        validFrom: '2025-07-01',
        complete: false,
        fileName: 'x',
        text: csv('HR,2025-07-01,,DE,Njemačka,90,EUR,s'),
      }),
    );
    t.match(overlap, { validFrom: [/2025-07-01 falls in the imported version from 2025-01-01 to 2025-12-31/] });
    t.equal((await store.readStream(rateTableStream('HR'))).length, 2);
  });

  t.test('the admin operation checks its flags, reads the file and invalidates the tables', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'travelog-rates-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'cz-2027.csv');
    writeFileSync(file, csv('CZ,2027-01-01,,DE,Německo,1000,CZK,cz-vyhlaska-2027'));
    let invalidated = 0;
    const ctx = { store, perDiemRateTables: { invalidate: () => invalidated++ } } as unknown as OperationContext;
    const op = operations['per-diem-rates import']!;
    const flags = await refused(
      t,
      op(ctx, { law: 'AT', file: '' }, () => undefined),
    );
    t.same(Object.keys(flags).sort(), ['file', 'law', 'valid-from']);
    t.match(
      await refused(
        t,
        op(ctx, { law: 'CZ', 'valid-from': '2027-01-01', file: path.join(dir, 'missing.csv') }, () => undefined),
      ),
      {
        file: [/Cannot read .*ENOENT/],
      },
    );
    t.match(await op(ctx, { law: 'cz', 'valid-from': '2027-01-01', file }, () => undefined), { law: 'CZ', recorded: true, rows: 1 });
    t.equal(invalidated, 1);
    t.match((await store.readStream(rateTableStream('CZ')))[0], { data: { fileName: 'cz-2027.csv', complete: false } });
  });
});
