import t from 'tap';
import { compareDecimals, decimalProblem, isDecimal, sumDecimals } from '../../../src/domain/shared/decimal.js';
import { isDate, isUtcInstant } from '../../../src/domain/shared/dates.js';
import { isCountryCode } from '../../../src/domain/shared/country-codes.js';
import { characterCount, sameJson, textProblem } from '../../../src/domain/shared/text.js';

t.test('decimal strings add and compare exactly', async (t) => {
  t.equal(sumDecimals(['33.33', '33.33', '33.34']), '100');
  t.equal(sumDecimals(['0.1', '0.2']), '0.3');
  t.equal(sumDecimals(['60', '40.5']), '100.5');
  t.equal(sumDecimals(['-1.25', '1']), '-0.25');
  t.equal(sumDecimals([]), '0');
  t.equal(compareDecimals('100.00', '100'), 0);
  t.equal(compareDecimals('99.9999', '100'), -1);
  t.equal(compareDecimals('-0.5', '0'), -1);
});

t.test('decimal shapes', async (t) => {
  for (const ok of ['0', '12', '12.50', '-4', '0.001']) t.ok(isDecimal(ok), ok);
  for (const bad of ['', '01', '1e3', '1.', '.5', '1,5', ' 1', 'NaN']) t.notOk(isDecimal(bad), bad);
  t.equal(decimalProblem('12.345', { maxScale: 2 }), 'At most 2 decimal places.');
  t.equal(decimalProblem('0', { min: 'positive', maxScale: 2 }), 'Must be greater than 0.');
  t.equal(decimalProblem('-1', { min: 'zero', maxScale: 2 }), 'Must not be negative.');
  t.equal(decimalProblem('0', { min: 'zero', maxScale: 2 }), null);
});

t.test('text length counts characters (code points), as the schemas do', async (t) => {
  t.equal(characterCount(''), 0);
  t.equal(characterCount('Ana'), 3);
  t.equal(characterCount('😀'.repeat(60)), 60, 'an emoji is one character');
  t.equal(characterCount('a\ud800b'), 3, 'a lone surrogate counts as one (refused elsewhere)');
  t.equal(characterCount('\udc00\ud83d\ude00'), 2);
  t.equal(textProblem('😀'.repeat(100), { required: true, maxLength: 100 }), null, '100 emoji fit a 100-character field');
  t.equal(textProblem('😀'.repeat(101), { required: true, maxLength: 100 }), 'At most 100 characters.');
});

t.test('dates and instants', async (t) => {
  t.ok(isDate('2024-02-29'));
  t.notOk(isDate('2026-02-29'));
  t.notOk(isDate('2026-13-01'));
  t.notOk(isDate('26-01-01'));
  t.notOk(isDate('2026-1-01'), 'fixed width');
  t.notOk(isDate('２０２６-01-01'), 'ASCII digits only');
  // The arithmetic check against what a Date says, for every month and day number of years across
  // the range (leap and century rules included).
  const byDate = (y: number, m: number, d: number): boolean => {
    const at = new Date(Date.UTC(y, m - 1, d));
    return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
  };
  const pad = (n: number, w: number): string => String(n).padStart(w, '0');
  let disagreements = 0;
  for (const y of [0, 1, 99, 100, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999]) {
    for (let m = 0; m <= 13; m++) {
      for (let d = 0; d <= 32; d++) if (isDate(`${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`) !== byDate(y, m, d)) disagreements++;
    }
  }
  t.equal(disagreements, 0, 'the same verdict as a Date for every month and day number');
  t.ok(isUtcInstant('2026-03-01T08:00:00Z'));
  t.ok(isUtcInstant('2026-03-01T08:00:00.123Z'));
  t.notOk(isUtcInstant('2026-03-01T08:00:00+01:00'), 'offsets are not UTC instants');
  t.notOk(isUtcInstant('2026-02-30T08:00:00Z'));
});

t.test('country codes are canonical upper-case ISO 3166-1 alpha-2 (plus XK)', async (t) => {
  for (const c of ['HR', 'SI', 'CZ', 'SK', 'AT', 'XK']) t.ok(isCountryCode(c), c);
  for (const c of ['hr', 'UK', 'EU', 'HRV', '']) t.notOk(isCountryCode(c), c);
});

t.test('sameJson ignores key order', async (t) => {
  t.ok(sameJson({ a: 1, b: [1, { c: 2, d: null }] }, { b: [1, { d: null, c: 2 }], a: 1 }));
  t.notOk(sameJson({ a: 1 }, { a: '1' }));
});
