// HNB API v3 JSON: decimal commas, several lists in one range response, the 2023 and 2025 number
// styles, and malformed input rejected with the line named.
import t from 'tap';
import { parseHnb } from '../../../src/rates/parse/hnb.js';
import { HNB_LIST, HNB_RANGE, readFixture } from '../fixture-files.js';

t.test('a recorded range response: five lists, 13 currencies each, decimal commas', async (t) => {
  const rates = parseHnb(readFixture(HNB_RANGE));
  t.equal(rates.length, 65);
  t.same(
    [...new Set(rates.map((r) => r.date))],
    ['2025-04-11', '2025-04-14', '2025-04-15', '2025-04-16', '2025-04-17'],
    'no list on the weekend',
  );
  const on14 = rates.filter((r) => r.date === '2025-04-14');
  t.same(on14.map((r) => r.currency).sort(), ['AUD', 'BAM', 'CAD', 'CHF', 'CZK', 'DKK', 'GBP', 'HUF', 'JPY', 'NOK', 'PLN', 'SEK', 'USD']);
  t.same(
    on14.find((r) => r.currency === 'USD'),
    { date: '2025-04-14', currency: 'USD', rate: '1.1346', units: 1 },
    '"1,134600" is the middle rate',
  );
  t.equal(on14.find((r) => r.currency === 'HUF')?.rate, '408.9');
  t.equal(on14.find((r) => r.currency === 'BAM')?.rate, '1.95583');
  t.ok(
    rates.every((r) => r.units === 1),
    'HNB quotes per 1 EUR',
  );
});

t.test('a single list (the v3 default answer)', async (t) => {
  const rates = parseHnb(readFixture(HNB_LIST));
  t.equal(rates.length, 13);
  t.ok(rates.every((r) => r.date === '2025-04-14'));
  t.equal(rates.find((r) => r.currency === 'GBP')?.rate, '0.86678');
});

t.test('the 2023 style with 4-5 significant digits parses too', async (t) => {
  const text =
    '[{"broj_tecajnice":"3","datum_primjene":"2023-01-04","drzava":"Češka","drzava_iso":"CZE","kupovni_tecaj":"24,1602","prodajni_tecaj":"24,0878","sifra_valute":"203","srednji_tecaj":"24,124","valuta":"CZK"},' +
    '{"broj_tecajnice":"3","datum_primjene":"2023-01-04","drzava":"Australija","drzava_iso":"AUS","kupovni_tecaj":"1,5732","prodajni_tecaj":"1,5684","sifra_valute":"036","srednji_tecaj":"1,5708","valuta":"AUD"}]';
  t.same(parseHnb(text), [
    { date: '2023-01-04', currency: 'CZK', rate: '24.124', units: 1 },
    { date: '2023-01-04', currency: 'AUD', rate: '1.5708', units: 1 },
  ]);
  t.same(parseHnb('[]'), [], 'an empty answer is no rates, not an error');
});

// A pretty-printed copy of the single list: one row per line, row n on line n + 1.
const listRows = (): Record<string, string>[] => JSON.parse(readFixture(HNB_LIST)) as Record<string, string>[];
const pretty = (rows = listRows()): string => `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;

t.test('malformed rows are rejected naming the line', async (t) => {
  const base = pretty();
  const usdLine = base.split('\n').findIndex((l) => l.includes('"valuta":"USD"')) + 1;
  t.throws(() => parseHnb(base.replace('"srednji_tecaj":"1,134600"', '"srednji_tecaj":"1.134600"'), 'hnb.json'), {
    name: 'RatesFormatError',
    line: usdLine,
    message: new RegExp(
      `^HNB rates in hnb\\.json, line ${usdLine}: rate of USD: "1\\.134600" is not a decimal number \\(expected digits with an optional decimal comma\\)`,
    ),
  });
  t.throws(() => parseHnb(base.replace('"valuta":"USD"', '"valuta_x":"USD"')), {
    name: 'RatesFormatError',
    line: usdLine,
    message: /no text field "valuta"/,
  });
  t.throws(() => parseHnb(base.replace('"datum_primjene":"2025-04-14","drzava":"SAD"', '"datum_primjene":"2025-04-31","drzava":"SAD"')), {
    name: 'RatesFormatError',
    line: usdLine,
    message: /date "2025-04-31" is not a calendar date/,
  });
  t.throws(
    () => parseHnb(base.replace('"srednji_tecaj":"1,134600"', '"srednji_tecaj":1.1346')),
    { name: 'RatesFormatError', line: usdLine, message: /no text field "srednji_tecaj"/ },
    'a JSON number is not the published format',
  );
  t.throws(() => parseHnb(base.replace('"srednji_tecaj":"1,134600"', '"srednji_tecaj":"0,000000"')), {
    name: 'RatesFormatError',
    line: usdLine,
    message: /not positive/,
  });
  const rows = listRows();
  rows.push(rows[rows.length - 1]!);
  t.throws(() => parseHnb(pretty(rows)), {
    name: 'RatesFormatError',
    line: 15,
    message: /line 15: PLN on 2025-04-14 is listed twice \(first on line 14\)/,
  });
});

t.test('broken JSON is rejected naming the line of the syntax error', async (t) => {
  const base = pretty();
  const lines = base.split('\n');
  const missingComma = [lines[0], lines[1], lines[2]!.replace(/,$/, ''), ...lines.slice(3)].join('\n');
  t.throws(() => parseHnb(missingComma), {
    name: 'RatesFormatError',
    line: 4,
    message: /line 4: not a JSON array of rate rows: expected "," but found "\{"/,
  });
  const truncated = base.slice(0, base.indexOf('"valuta":"USD"') + 10);
  t.throws(
    () => parseHnb(truncated),
    { name: 'RatesFormatError', line: lines.findIndex((l) => l.includes('"valuta":"USD"')) + 1, detail: /unterminated string/ },
    'a truncated download',
  );
  t.throws(() => parseHnb(base.slice(0, base.indexOf('"valuta":"USD"') + 14)), {
    name: 'RatesFormatError',
    detail: /expected "\}" but found the end of the text/,
  });
  t.throws(() => parseHnb('{"error":"not found"}'), { name: 'RatesFormatError', line: 1, message: /expected a JSON array/ });
  t.throws(() => parseHnb('<html>\n<body>503</body>\n</html>'), {
    name: 'RatesFormatError',
    line: 1,
    message: /expected a JSON array but found "<"/,
  });
  t.throws(() => parseHnb('[\n{"a":1}\n]\nx'), { name: 'RatesFormatError', line: 4, message: /unexpected "x" after the array/ });
  t.throws(() => parseHnb('[\n"row"\n]'), { name: 'RatesFormatError', line: 2, message: /row 1 is not an object/ });
});
