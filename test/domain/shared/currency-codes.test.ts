// The domain's currency codes are the reference catalog's (ISO 4217 from the currency-codes package,
// without metals, bond units, funds and tests, with the codes added since) plus the region's former
// currencies: the domain imports no package, so its list is written out and held to the package here.
import t from 'tap';
import { CURRENCY_CODES, FORMER_CURRENCIES, isCurrencyCode } from '../../../src/domain/shared/currency-codes.js';
import { currencyCatalog } from '../../../src/application/reference/countries-and-currencies.js';

t.test('the accepted codes are the catalog and the former currencies, nothing else', (t) => {
  const expected = [...currencyCatalog().map((c) => c.code), ...FORMER_CURRENCIES].sort();
  t.same([...CURRENCY_CODES].sort(), expected);
  t.end();
});

t.test('a code of the right shape that names no money is refused', (t) => {
  for (const code of ['EUR', 'CZK', 'HRK', 'SIT', 'SKK', 'USD', 'XCG']) t.ok(isCurrencyCode(code), code);
  for (const code of ['XYZ', 'XAU', 'XXX', 'eur', 'EURO', '']) t.notOk(isCurrencyCode(code), code);
  t.end();
});
