// ECB eurofxref XML: the daily file, a multi-day history file, and malformed XML rejected with the
// line named (well-formedness errors and wrong content alike).
import t from 'tap';
import { parseEcb } from '../../../src/rates/parse/ecb.js';
import { ECB_DAILY, ECB_HIST, lineOf, readFixture } from '../fixture-files.js';

t.test('the daily file: one day, 30 currencies, decimal points', async (t) => {
  const rates = parseEcb(readFixture(ECB_DAILY));
  t.equal(rates.length, 30);
  t.ok(rates.every((r) => r.date === '2025-04-11' && r.units === 1));
  const by = new Map(rates.map((r) => [r.currency, r.rate]));
  t.equal(by.get('USD'), '1.1346');
  t.equal(by.get('HUF'), '408.9', '"408.90" normalized');
  t.equal(by.get('GBP'), '0.86678');
  t.equal(by.get('IDR'), '19123.91');
  t.equal(by.get('TRY'), '43.181');
  t.notOk(by.has('EUR'), 'the base currency is not listed');
});

t.test('a history file: several days, newest first, with the weekend gap', async (t) => {
  const rates = parseEcb(readFixture(ECB_HIST));
  t.equal(rates.length, 7 * 30);
  t.same(
    [...new Set(rates.map((r) => r.date))],
    ['2025-04-17', '2025-04-16', '2025-04-15', '2025-04-14', '2025-04-11', '2025-04-10', '2025-04-09'],
  );
  const usd = rates.filter((r) => r.currency === 'USD').map((r) => `${r.date} ${r.rate}`);
  t.same(usd, [
    '2025-04-17 1.136',
    '2025-04-16 1.1355',
    '2025-04-15 1.1324',
    '2025-04-14 1.1377',
    '2025-04-11 1.1346',
    '2025-04-10 1.1082',
    '2025-04-09 1.1045',
  ]);
});

t.test('wrong content is rejected naming the line', async (t) => {
  const text = readFixture(ECB_HIST);
  const target = "<Cube currency='CHF' rate='0.9329'/>"; // on 2025-04-14
  const line = lineOf(text, target);
  t.throws(() => parseEcb(text.replace(target, "<Cube currency='CHF' rate='0,9329'/>"), 'hist.xml'), {
    name: 'RatesFormatError',
    line,
    message: new RegExp(`^ECB rates in hist\\.xml, line ${line}: rate of CHF: "0,9329" is not a decimal number`),
  });
  t.throws(() => parseEcb(text.replace(target, "<Cube currency='chf' rate='0.9329'/>")), {
    name: 'RatesFormatError',
    line,
    detail: /currency "chf" is not an ISO 4217 code/,
  });
  t.throws(() => parseEcb(text.replace(target, "<Cube currency='CHF'/>")), {
    name: 'RatesFormatError',
    line,
    detail: /needs currency and rate attributes/,
  });
  t.throws(() => parseEcb(text.replace(target, "<Cube currency='CHF' rate='-0.9329'/>")), {
    name: 'RatesFormatError',
    line,
    detail: /is not a decimal number|not positive/,
  });
  const dayLine = lineOf(text, "<Cube time='2025-04-14'>");
  t.throws(() => parseEcb(text.replace("<Cube time='2025-04-14'>", "<Cube time='2025-14-04'>")), {
    name: 'RatesFormatError',
    line: dayLine,
    detail: /time "2025-14-04" is not a calendar date/,
  });
  t.throws(() => parseEcb(text.replace("<Cube time='2025-04-14'>", '<Cube>')), {
    name: 'RatesFormatError',
    line: dayLine,
    detail: /no time attribute/,
  });
  t.throws(() => parseEcb(text.replace("<Cube currency='USD' rate='1.1377'/>", "<Cube currency='CHF' rate='1.1377'/>")), {
    name: 'RatesFormatError',
    line,
    detail: /CHF on 2025-04-14 is listed twice/,
  });
});

t.test('a commented-out Cube does not shift the line numbers', async (t) => {
  const text = readFixture(ECB_HIST);
  const withComment = text.replace(
    "\t\t<Cube time='2025-04-14'>",
    "\t\t<!-- <Cube currency='XXX' rate='1'/>\n <Cube> -->\n\t\t<Cube time='2025-04-14'>",
  );
  const target = "<Cube currency='CHF' rate='0.9329'/>";
  const broken = withComment.replace(target, "<Cube currency='CHF' rate='x'/>");
  t.throws(() => parseEcb(broken), { name: 'RatesFormatError', line: lineOf(broken, "<Cube currency='CHF' rate='x'/>") });
});

t.test('XML that is not well-formed, or not the ECB envelope', async (t) => {
  const text = readFixture(ECB_DAILY);
  const line = lineOf(text, "<Cube currency='GBP'");
  t.throws(() => parseEcb(text.replace("<Cube currency='GBP' rate='0.86678'/>", "<Cube currency='GBP' rate='0.86678'>")), {
    name: 'RatesFormatError',
    detail: /not well-formed XML/,
  });
  t.throws(() => parseEcb(text.replace("rate='0.86678'/>", "rate='0.86678/>")), {
    name: 'RatesFormatError',
    line,
    detail: /not well-formed XML/,
  });
  t.throws(
    () => parseEcb(text.slice(0, text.indexOf("<Cube currency='PLN'"))),
    { name: 'RatesFormatError', detail: /not well-formed XML/ },
    'a truncated download',
  );
  t.throws(() => parseEcb('<html><body>Service unavailable</body></html>'), {
    name: 'RatesFormatError',
    line: 1,
    detail: /expected a gesmes:Envelope document/,
  });
  t.throws(() => parseEcb('not xml at all'), { name: 'RatesFormatError', line: 1, detail: /not well-formed XML/ });
  const empty = text.replace(/\t\t<Cube time='2025-04-11'>[\s\S]*?\t\t<\/Cube>\n/, '');
  t.throws(() => parseEcb(empty), {
    name: 'RatesFormatError',
    line: lineOf(empty, '<Cube>'),
    detail: /holds no <Cube time=\.\.\.> publication/,
  });
});
