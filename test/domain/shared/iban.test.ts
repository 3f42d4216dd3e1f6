import t from 'tap';
import { ibanLengthOf, ibanProblem, isValidIban, normalizeIban } from '../../../src/domain/shared/iban.js';
import { bicProblem } from '../../../src/domain/shared/bic.js';

t.test('valid IBANs of our tenant countries and neighbours pass', async (t) => {
  for (const iban of [
    'HR1210010051863000160',
    'SI56263300012039086',
    'CZ6508000000192000145399',
    'SK3112000000198742637541',
    'AT611904300234573201',
    'DE89370400440532013000',
    'GB82WEST12345698765432',
  ]) {
    t.equal(ibanProblem(iban), null, iban);
  }
});

t.test('print format is normalized to the electronic format', async (t) => {
  t.equal(normalizeIban(' hr12 1001-0051 8630 0016 0 '), 'HR1210010051863000160');
  t.ok(isValidIban('hr12 1001 0051 8630 0016 0'));
});

t.test('a wrong check digit fails MOD 97', async (t) => {
  t.match(ibanProblem('HR1310010051863000160'), /MOD 97/);
  t.match(ibanProblem('DE89370400440532013001'), /MOD 97/);
});

t.test('the country length table is enforced', async (t) => {
  t.match(ibanProblem('HR121001005186300016'), /21 characters, not 20/);
  t.match(ibanProblem('SI5626330001203908'), /19 characters/);
  t.equal(ibanLengthOf('HR'), 21);
  t.equal(ibanLengthOf('CZ'), 24);
  t.equal(ibanLengthOf('SK'), 24);
  t.equal(ibanLengthOf('SI'), 19);
  t.equal(ibanLengthOf('XK'), 20);
  t.equal(ibanLengthOf('US'), undefined);
  t.equal(ibanLengthOf('AO'), undefined, 'a country outside the SWIFT registry has no IBAN');
});

t.test('a national account checksum is checked where ibantools knows it (Croatia)', async (t) => {
  // HR: MOD 97 made to match, but the account number's own ISO 7064 check digit is wrong.
  t.match(ibanProblem('HR8210010051863000161'), /own check digit does not match/);
  t.equal(ibanProblem('HR1210010051863000160'), null);
});

t.test('countries without IBANs and malformed input are rejected', async (t) => {
  t.match(ibanProblem('US12345678901234567890'), /does not use IBANs/);
  t.match(ibanProblem('1210010051863000160'), /two letters/);
  t.match(ibanProblem('HR12 1001'), /two letters/);
  t.match(ibanProblem(''), /two letters/);
});

t.test('BIC format', async (t) => {
  t.equal(bicProblem('ZABAHR2X'), null);
  t.equal(bicProblem('ZABAHR2XXXX'), null);
  t.equal(bicProblem('GIBACZPX'), null);
  t.match(bicProblem('ZABA'), /8 or 11/);
  t.match(bicProblem('ZABAHR2XX'), /8 or 11/);
  t.match(bicProblem('ZABAQQ2X'), /not an ISO 3166-1 code/);
});
