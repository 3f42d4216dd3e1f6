// MoneyIn takes an amount as a JSON number or a decimal string, within the same bound either way
// (once a string could carry ten integer digits where the number stopped at 1,000,000,000).
import t from 'tap';
import { MAX_AMOUNT, MoneyIn, RateIn } from '../../src/http/schemas/money.js';
import { validatorCompiler } from '../../src/http/validation.js';

t.test('a decimal string and a number have the same bound', async (t) => {
  const valid = validatorCompiler({ schema: MoneyIn, httpPart: 'body', method: 'POST', url: '/money' }) as (v: unknown) => boolean;
  for (const ok of [MAX_AMOUNT, -MAX_AMOUNT, '1000000000', '1000000000.000000', '-1000000000', '999999999.999999', '0.5', '12'])
    t.ok(valid(ok), `${JSON.stringify(ok)} is taken`);
  for (const bad of [MAX_AMOUNT + 1, '1000000000.01', '1000000001', '9999999999.99', '12.1234567', '1e3', ''])
    t.notOk(valid(bad), `${JSON.stringify(bad)} is refused`);
});

t.test("an exchange rate as a string has the number's bound", async (t) => {
  const valid = validatorCompiler({ schema: RateIn, httpPart: 'body', method: 'POST', url: '/rate' }) as (v: unknown) => boolean;
  for (const ok of [1_000_000, 0.0001, '1000000', '1000000.0', '999999.9999999999', '7.5345', '0.0001', '10'])
    t.ok(valid(ok), `${JSON.stringify(ok)} is taken`);
  for (const bad of [1_000_001, 0, '0', '0.0', '000.0000', '1000001', '9999999', '1000000.5', '-1'])
    t.notOk(valid(bad), `${JSON.stringify(bad)} is refused`);
});
