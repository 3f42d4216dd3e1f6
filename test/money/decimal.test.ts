// The money helpers: exact decimal parsing, the one rounding rule (2 places, half-up) and the
// conversion direction math, with exact expected strings.
import t from 'tap';
import {
  DecimalFormatError,
  formatDecimal,
  formatMoney,
  parseDecimal,
  roundMoney,
  toBaseCurrency,
  toDecimal,
} from '../../src/money/decimal.js';

t.test('parseDecimal reads point and comma notations exactly', async (t) => {
  t.equal(parseDecimal('1.1346').toFixed(), '1.1346');
  t.equal(parseDecimal('1,134600', { decimalComma: true }).toFixed(), '1.1346');
  t.equal(parseDecimal(' 408,90 ', { decimalComma: true }).toFixed(), '408.9');
  t.equal(parseDecimal('19123.91').toFixed(), '19123.91');
  t.throws(() => parseDecimal('1,1346'), DecimalFormatError, 'a comma is not a decimal point');
  t.throws(() => parseDecimal('1.1346', { decimalComma: true }), DecimalFormatError, 'a point is not a decimal comma');
  t.throws(() => parseDecimal('1.234,56', { decimalComma: true }), DecimalFormatError, 'no thousands separators');
  t.throws(() => parseDecimal(''), DecimalFormatError);
  t.throws(() => parseDecimal('1e3'), DecimalFormatError, 'no exponent notation');
});

t.test('numbers from JSON are taken by their decimal form, never their binary expansion', async (t) => {
  t.equal(toDecimal(0.1).toFixed(), '0.1');
  t.equal(toDecimal(0.1).plus(toDecimal(0.2)).toFixed(), '0.3');
  t.equal(formatMoney(0.1 + 0.2), '0.30');
  t.throws(() => toDecimal(Number.NaN), DecimalFormatError);
  t.throws(() => toDecimal(Number.POSITIVE_INFINITY), DecimalFormatError);
});

t.test('the rounding rule: 2 places, half-up (ties away from zero)', async (t) => {
  t.equal(roundMoney('2.345').toFixed(2), '2.35');
  t.equal(roundMoney('0.125').toFixed(2), '0.13', 'half-even would give 0.12');
  t.equal(roundMoney('12.285').toFixed(2), '12.29', 'half-even would give 12.28');
  t.equal(roundMoney('2.3449999').toFixed(2), '2.34');
  t.equal(roundMoney('-2.345').toFixed(2), '-2.35', 'a negative tie goes away from zero');
  t.equal(formatMoney('7'), '7.00');
  t.equal(formatMoney('1234567890123.455'), '1234567890123.46', 'large amounts stay exact');
  t.equal(formatDecimal('0.000001'), '0.000001', 'rates print without exponent');
});

t.test('ForeignPerBase (HNB, ECB): base = amount × units / rate', async (t) => {
  const usd = { rate: '1.1346', units: 1, direction: 'ForeignPerBase' as const };
  t.equal(toBaseCurrency('100', usd).toFixed(2), '88.14', '100 / 1.1346 = 88.13678…');
  t.equal(toBaseCurrency(1000, usd).toFixed(2), '881.37', '1000 / 1.1346 = 881.36788…');
  t.equal(toBaseCurrency('408.90', { rate: '408.90', units: 1, direction: 'ForeignPerBase' }).toFixed(2), '1.00');
  t.equal(toBaseCurrency('0.3', { rate: '0.1', units: 1, direction: 'ForeignPerBase' }).toFixed(2), '3.00', 'no float residue');
  t.equal(
    toBaseCurrency('1000', { rate: '2', units: 100, direction: 'ForeignPerBase' }).toFixed(2),
    '50000.00',
    'units scale the base side',
  );
  t.equal(toBaseCurrency('24.57', { rate: '2', units: 1, direction: 'ForeignPerBase' }).toFixed(2), '12.29', 'a tie rounds up');
});

t.test('BasePerForeign (CNB): base = amount × rate / units', async (t) => {
  t.equal(
    toBaseCurrency('1000', { rate: '6.514', units: 100, direction: 'BasePerForeign' }).toFixed(2),
    '65.14',
    '1000 HUF at 6.514 CZK per 100',
  );
  t.equal(
    toBaseCurrency('12345', { rate: '15.186', units: 100, direction: 'BasePerForeign' }).toFixed(2),
    '1874.71',
    '12345 JPY = 1874.7117 CZK',
  );
  t.equal(toBaseCurrency('250000', { rate: '1.468', units: 1000, direction: 'BasePerForeign' }).toFixed(2), '367.00', 'IDR per 1000');
  t.equal(
    toBaseCurrency('123.45', { rate: '24.59', units: 1, direction: 'BasePerForeign' }).toFixed(2),
    '3035.64',
    '123.45 EUR = 3035.6355 CZK',
  );
  t.equal(toBaseCurrency('0.5', { rate: '24.57', units: 1, direction: 'BasePerForeign' }).toFixed(2), '12.29', 'the tie 12.285 rounds up');
});

t.test('a conversion refuses a non-positive rate or bad units', async (t) => {
  t.throws(() => toBaseCurrency('1', { rate: '0', units: 1, direction: 'ForeignPerBase' }), DecimalFormatError);
  t.throws(() => toBaseCurrency('1', { rate: '1', units: 0, direction: 'BasePerForeign' }), DecimalFormatError);
  t.throws(() => toBaseCurrency('1', { rate: '1', units: 1.5, direction: 'BasePerForeign' }), DecimalFormatError);
});
