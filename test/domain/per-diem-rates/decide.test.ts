// The rate-table decider: a file is recorded as one event, or refused whole with every problem
// keyed by its file line; periods may not overlap a bounded earlier version.
import t from 'tap';
import fc from 'fast-check';
import {
  perDiemRateTableDecider,
  type ImportPerDiemRates,
  type PerDiemRatesImported,
  type RateFileRow,
  type RatePeriod,
} from '../../../src/domain/per-diem-rates/index.js';
import { DomainError } from '../../../src/domain/errors.js';
import { fold } from '../../../src/domain/decider.js';
import { givenWhenThen, TEST_NOW, testContext } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(perDiemRateTableDecider);

// The shipped HR versions (src/reference-data): the old decree without a first day, ending
// 2024-02-07, and the 2024 Uredba, open-ended.
const HR_SHIPPED: RatePeriod[] = [
  { validFrom: '', validTo: '2024-02-07' },
  { validFrom: '2024-02-08', validTo: null },
];

const row = (line: number, over: Partial<RateFileRow> = {}): RateFileRow => ({
  line,
  law: 'HR',
  validFrom: '2025-01-01',
  validTo: '',
  countryCode: 'DE',
  countryName: 'Njemačka',
  rate: '70',
  currency: 'EUR',
  source: 'hr-nn-2025',
  ...over,
});

const importing = (
  rows: RateFileRow[],
  opts: { validFrom?: string; complete?: boolean; shipped?: RatePeriod[]; problems?: { key: string; message: string }[] } = {},
): ImportPerDiemRates => ({
  type: 'ImportPerDiemRates',
  data: {
    law: 'HR',
    validFrom: opts.validFrom ?? '2025-01-01',
    complete: opts.complete ?? false,
    fileName: 'hr-2025.csv',
    rows,
    problems: opts.problems ?? [],
    shippedVersions: opts.shipped ?? HR_SHIPPED,
  },
});

const imported = (validFrom: string, validTo: string | null, rows: RateFileRow[], complete = false): PerDiemRatesImported => ({
  type: 'PerDiemRatesImported',
  data: {
    law: 'HR',
    validFrom,
    validTo,
    complete,
    rows: rows.map(({ countryCode, countryName, rate, currency, source }) => ({ countryCode, countryName, rate, currency, source })),
    fileName: 'hr-2025.csv',
    at: TEST_NOW,
  },
});

t.test('a valid table is one PerDiemRatesImported event', async (t) => {
  const rows = [
    row(2),
    row(3, { countryCode: 'AT', countryName: 'Austrija', rate: '72.50' }),
    row(4, { countryCode: '*', countryName: 'ostale', rate: '50', currency: 'USD' }),
  ];
  scenario(t)
    .given([])
    .when(importing(rows, { complete: true }))
    .then([imported('2025-01-01', null, rows, true)]);
});

t.test('a bounded table records its validTo', async (t) => {
  const rows = [row(2, { validTo: '2025-12-31' }), row(3, { countryCode: 'AT', validTo: '2025-12-31' })];
  scenario(t)
    .given([])
    .when(importing(rows))
    .then([imported('2025-01-01', '2025-12-31', rows)]);
});

t.test('every problem of every line is reported, keyed by the file line', async (t) => {
  const err = scenario(t)
    .given([])
    .when(
      importing([
        row(2, { law: 'SI' }),
        row(3, { validFrom: '' }),
        row(4, { validFrom: '2025-01-02', countryCode: 'AT' }),
        row(5, { validTo: '2024-12-31', countryCode: 'FR' }),
        row(6, { countryCode: 'de' }),
        row(7, { countryCode: 'DE' }),
        row(8, { countryCode: 'IT', rate: '0' }),
        row(9, { countryCode: 'ES', rate: '12.345' }),
        row(10, { countryCode: 'PT', rate: '-1' }),
        row(11, { countryCode: 'NL', rate: '1e2', currency: 'eur' }),
        row(12, { countryCode: 'BE', countryName: '', source: '' }),
        row(13, { countryCode: 'PL', validTo: 'soon' }),
      ]),
    )
    .thenThrows('VALIDATION_FAILED', [
      'line 2',
      'line 3',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
      'line 8',
      'line 9',
      'line 10',
      'line 11',
      'line 12',
      'line 13',
    ]);
  const e = err.errors!;
  t.match(e['line 2'], [/^law: must be HR/]);
  t.match(e['line 3'], [/^validFrom: must not be empty/]);
  t.match(e['line 4'], [/^validFrom: must be 2025-01-01/]);
  t.match(e['line 5'], [/^validTo: 2024-12-31 is before validFrom/, /^validTo: "2024-12-31" differs from line 2/]);
  t.match(e['line 6'], [/^countryCode: must be an upper-case ISO/]);
  t.match(e['line 7'], [/^countryCode: DE is already on line 2/]);
  t.match(e['line 8'], [/^rate: Must be greater than 0/]);
  t.match(e['line 9'], [/^rate: At most 2 decimal places/]);
  t.match(e['line 10'], [/^rate: /]);
  t.match(e['line 11'], [/^rate: /, /^currency: must be an ISO 4217/]);
  t.match(e['line 12'], [/^countryName: Required/, /^source: Required/]);
  t.match(e['line 13'], [/^validTo: must be empty or a date/, /differs from line 2/]);
});

t.test('a country listed twice is an overlapping period', async (t) => {
  const err = scenario(t)
    .given([])
    .when(importing([row(2), row(3, { countryCode: 'AT' }), row(4, { rate: '80' })]))
    .thenThrows('VALIDATION_FAILED', ['line 4']);
  t.match(err.errors!['line 4'], [/DE is already on line 2/]);
});

t.test('an empty table and a bad --valid-from are refused', async (t) => {
  t.match(scenario(t).given([]).when(importing([])).thenThrows('VALIDATION_FAILED', ['file']).errors, { file: [/no rows/] });
  scenario(t)
    .given([])
    .when(importing([row(2)], { validFrom: '2025-02-30' }))
    .thenThrows('VALIDATION_FAILED', ['validFrom']);
});

t.test('periods: a later validFrom takes over from an open version, never inside a bounded one', async (t) => {
  // After the open 2024-02-08 version: fine.
  t.equal(
    scenario(t)
      .given([])
      .when(importing([row(2)]))
      .events().length,
    1,
  );
  // Inside the shipped old decree (to 2024-02-07): refused.
  const inside = scenario(t)
    .given([])
    .when(importing([row(2, { validFrom: '2024-01-01' })], { validFrom: '2024-01-01' }))
    .thenThrows('VALIDATION_FAILED', ['validFrom']);
  t.match(inside.errors!.validFrom, [/falls in the shipped version \(no first day\) to 2024-02-07/]);
  // Bounded so that it reaches into the shipped 2024-02-08 version: refused by its validTo too.
  const reaching = scenario(t)
    .given([])
    .when(importing([row(2, { validFrom: '2024-01-01', validTo: '2024-03-01' })], { validFrom: '2024-01-01' }))
    .thenThrows('VALIDATION_FAILED', ['validFrom', 'validTo']);
  t.match(reaching.errors!.validTo, [/2024-03-01 reaches into the shipped version from 2024-02-08 to \(open\)/]);
  // Bounded 2025 imported, then 2025-06-01: refused; 2026-01-01: fine.
  const y2025 = imported('2025-01-01', '2025-12-31', [row(2, { validTo: '2025-12-31' })]);
  scenario(t)
    .given([y2025])
    .when(importing([row(2, { validFrom: '2025-06-01' })], { validFrom: '2025-06-01' }))
    .thenThrows('VALIDATION_FAILED', ['validFrom']);
  t.equal(
    scenario(t)
      .given([y2025])
      .when(importing([row(2, { validFrom: '2026-01-01' })], { validFrom: '2026-01-01' }))
      .events().length,
    1,
  );
  // An earlier bounded table that ends after a later version starts: refused by its validTo.
  scenario(t)
    .given([imported('2026-01-01', null, [row(2)])])
    .when(importing([row(2, { validFrom: '2025-01-01', validTo: '2026-01-01' })]))
    .thenThrows('VALIDATION_FAILED', ['validTo']);
  // The same validFrom as a shipped version completes it; its validTo may now be set.
  t.equal(
    scenario(t)
      .given([])
      .when(importing([row(2, { validFrom: '2024-02-08', validTo: '2024-12-31' })], { validFrom: '2024-02-08' }))
      .events().length,
    1,
  );
});

t.test('the imported validTo of a version replaces the shipped one in the period check', async (t) => {
  // 2024-02-08 (shipped, open) bounded by an import to 2024-12-31: a version from 2024-06-01 now overlaps it.
  scenario(t)
    .given([imported('2024-02-08', '2024-12-31', [row(2, { validFrom: '2024-02-08', validTo: '2024-12-31' })])])
    .when(importing([row(2, { validFrom: '2024-06-01' })], { validFrom: '2024-06-01' }))
    .thenThrows('VALIDATION_FAILED', ['validFrom']);
});

t.test('importing the same table again records nothing; a change or --complete records it', async (t) => {
  const rows = [row(2), row(3, { countryCode: 'AT' })];
  const past = [imported('2025-01-01', null, rows)];
  scenario(t).given(past).when(importing(rows)).then([]);
  scenario(t)
    .given(past)
    .when(importing([rows[1]!]))
    .then([], 'a subset of what is imported changes nothing');
  t.equal(
    scenario(t)
      .given(past)
      .when(importing(rows, { complete: true }))
      .events().length,
    1,
  );
  t.equal(
    scenario(t)
      .given(past)
      .when(importing([row(2, { rate: '71' })]))
      .events().length,
    1,
  );
  const state = scenario(t)
    .given(past)
    .when(importing([row(2, { countryCode: 'FR' })]))
    .state();
  t.same([...state.versions.get('2025-01-01')!.rows.keys()].sort(), ['AT', 'DE', 'FR'], 'rows merge country by country');
});

t.test('only the first 100 lines with problems are listed', async (t) => {
  const rows = Array.from({ length: 150 }, (_, i) => row(i + 2, { countryCode: 'XX' }));
  const err = scenario(t).given([]).when(importing(rows)).thenThrows('VALIDATION_FAILED');
  t.equal(Object.keys(err.errors!).filter((k) => k.startsWith('line ')).length, 100);
  t.match(err.errors!.file, [/50 more lines/]);
});

t.test('property: two versions never both cover a date unless the earlier one is open-ended', async () => {
  const day = fc.integer({ min: 0, max: 60 }).map((d) => new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10));
  const period = fc.tuple(day, fc.option(fc.integer({ min: 0, max: 30 }))).map(([from, len]) => ({
    validFrom: from,
    validTo: len === null ? null : new Date(Date.parse(from) + len * 86_400_000).toISOString().slice(0, 10),
  }));
  fc.assert(
    fc.property(fc.array(period, { maxLength: 6 }), (periods) => {
      const past: PerDiemRatesImported[] = [];
      for (const p of periods) {
        const cmd = importing([row(2, { validFrom: p.validFrom, validTo: p.validTo ?? '' })], { validFrom: p.validFrom, shipped: [] });
        try {
          past.push(...perDiemRateTableDecider.decide(cmd, fold(perDiemRateTableDecider, past), testContext()));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
        }
      }
      const versions = [...fold(perDiemRateTableDecider, past).versions.values()];
      for (const a of versions)
        for (const b of versions)
          if (a.validFrom < b.validFrom && a.validTo !== null && a.validTo >= b.validFrom)
            throw new Error(`${a.validFrom}..${a.validTo} overlaps ${b.validFrom}`);
    }),
  );
});
