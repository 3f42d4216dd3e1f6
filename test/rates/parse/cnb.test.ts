// CNB denni_kurz.txt: header line, the units column (množství), decimal commas, CRLF files, and
// malformed lines rejected by number.
import t from 'tap';
import { parseCnb } from '../../../src/rates/parse/cnb.js';
import { CNB_2023_11_13, CNB_2023_11_16, CNB_2025_04_25, lineOf, readFixture } from '../fixture-files.js';

t.test('13.11.2023: header date, units column and decimal commas', async (t) => {
  const rates = parseCnb(readFixture(CNB_2023_11_13));
  t.equal(rates.length, 31);
  t.ok(
    rates.every((r) => r.date === '2023-11-13'),
    'the header "13.11.2023 #219" dates every row',
  );
  const by = new Map(rates.map((r) => [r.currency, r]));
  t.same(by.get('HUF'), { date: '2023-11-13', currency: 'HUF', rate: '6.514', units: 100 }, '6,514 CZK per 100 HUF');
  t.same(by.get('IDR'), { date: '2023-11-13', currency: 'IDR', rate: '1.468', units: 1000 });
  t.same(by.get('JPY'), { date: '2023-11-13', currency: 'JPY', rate: '15.186', units: 100 });
  t.same(by.get('EUR'), { date: '2023-11-13', currency: 'EUR', rate: '24.59', units: 1 });
  t.same(by.get('TRY'), { date: '2023-11-13', currency: 'TRY', rate: '0.806', units: 1 }, 'before 2024 TRY was quoted per 1');
  t.same(by.get('XDR'), { date: '2023-11-13', currency: 'XDR', rate: '30.319', units: 1 });
  t.notOk(by.has('CZK'));
});

t.test('16.11.2023 with CRLF line ends, and 25.04.2025 with TRY per 100', async (t) => {
  const nov16 = parseCnb(readFixture(CNB_2023_11_16));
  t.equal(nov16.length, 31);
  t.equal(nov16.find((r) => r.currency === 'USD')?.rate, '22.547');
  t.equal(nov16.find((r) => r.currency === 'GBP')?.rate, '27.945', 'no stray \\r on the last field');
  const apr25 = parseCnb(readFixture(CNB_2025_04_25));
  t.same(
    apr25.find((r) => r.currency === 'TRY'),
    { date: '2025-04-25', currency: 'TRY', rate: '57.137', units: 100 },
  );
  t.same(
    apr25.find((r) => r.currency === 'EUR'),
    { date: '2025-04-25', currency: 'EUR', rate: '24.93', units: 1 },
  );
});

t.test('malformed files are rejected naming the line', async (t) => {
  const text = readFixture(CNB_2023_11_13);
  t.throws(() => parseCnb(text.replace('13.11.2023 #219', '2023-11-13 #219'), 'denni_kurz.txt'), {
    name: 'RatesFormatError',
    line: 1,
    message: /^CNB rates in denni_kurz\.txt, line 1: expected the fixing header "DD\.MM\.YYYY #N" but found "2023-11-13 #219"/,
  });
  t.throws(() => parseCnb(text.replace('13.11.2023', '31.11.2023')), {
    name: 'RatesFormatError',
    line: 1,
    detail: /the fixing date "31\.11\.2023 #219" is not a calendar date/,
  });
  t.throws(() => parseCnb(text.replace('země|měna|množství|kód|kurz', 'Country|Currency|Amount|Code|Rate')), {
    name: 'RatesFormatError',
    line: 2,
    detail: /expected the column line/,
  });
  const hufLine = lineOf(text, '|HUF|');
  t.throws(() => parseCnb(text.replace('|HUF|6,514', '|HUF|6.514')), {
    name: 'RatesFormatError',
    line: hufLine,
    detail: /rate of HUF: "6\.514" is not a decimal number \(expected digits with an optional decimal comma\)/,
  });
  t.throws(() => parseCnb(text.replace('forint|100|HUF', 'forint|sto|HUF')), {
    name: 'RatesFormatError',
    line: hufLine,
    detail: /amount "sto" of HUF is not a positive whole number/,
  });
  t.throws(() => parseCnb(text.replace('forint|100|HUF', 'forint|0|HUF')), {
    name: 'RatesFormatError',
    line: hufLine,
    detail: /amount "0"/,
  });
  t.throws(() => parseCnb(text.replace('Maďarsko|forint|100|HUF|6,514', 'Maďarsko|forint|100|HUF')), {
    name: 'RatesFormatError',
    line: hufLine,
    detail: /expected 5 fields .* but found 4/,
  });
  t.throws(() => parseCnb(text.replace('|HUF|', '|Ft|')), {
    name: 'RatesFormatError',
    line: hufLine,
    detail: /currency "Ft" is not an ISO 4217 code/,
  });
  t.throws(() => parseCnb('13.11.2023 #219\nzemě|měna|množství|kód|kurz\n'), { name: 'RatesFormatError', detail: /lists no currencies/ });
  t.throws(() => parseCnb('<!DOCTYPE html>\n<html>'), { name: 'RatesFormatError', line: 1 });
});
