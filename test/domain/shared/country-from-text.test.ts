import t from 'tap';
import { countryFromText } from '../../../src/domain/shared/country-from-text.js';

t.test('major cities in local languages and English', async (t) => {
  const cases: Array<[string, string]> = [
    ['Zagreb', 'HR'],
    ['Split', 'HR'],
    ['Ljubljana', 'SI'],
    ['Maribor', 'SI'],
    ['Praha', 'CZ'],
    ['Prague', 'CZ'],
    ['Brno', 'CZ'],
    ['Bratislava', 'SK'],
    ['Košice', 'SK'],
    ['Wien', 'AT'],
    ['Vienna', 'AT'],
    ['Beč', 'AT'],
    ['Dunaj', 'AT'],
    ['Vídeň', 'AT'],
    ['München', 'DE'],
    ['Munich', 'DE'],
    ['Budapest', 'HU'],
    ['Beograd', 'RS'],
    ['Belgrade', 'RS'],
    ['Sarajevo', 'BA'],
    ['Rim', 'IT'],
    ['Roma', 'IT'],
    ['Rome', 'IT'],
    ['Paris', 'FR'],
    ['Pariz', 'FR'],
    ['London', 'GB'],
    ['Bruxelles', 'BE'],
    ['Brussels', 'BE'],
    ['København', 'DK'],
  ];
  for (const [text, code] of cases) t.equal(countryFromText(text), code, text);
});

t.test("country names in English and the tenants' languages", async (t) => {
  const cases: Array<[string, string]> = [
    ['Austrija', 'AT'],
    ['Avstrija', 'AT'],
    ['Rakousko', 'AT'],
    ['Rakúsko', 'AT'],
    ['Njemačka', 'DE'],
    ['Německo', 'DE'],
    ['Mađarska', 'HU'],
    ['Madžarska', 'HU'],
    ['Chorvatsko', 'HR'],
    ['Slovensko', 'SK'],
    ['Czech Republic', 'CZ'],
    ['Bosna i Hercegovina', 'BA'],
    ['Crna Gora', 'ME'],
    ['Švicarska', 'CH'],
    ['Italija', 'IT'],
  ];
  for (const [text, code] of cases) t.equal(countryFromText(text), code, text);
});

t.test('case, diacritics and punctuation do not matter', async (t) => {
  t.equal(countryFromText('  BEC  '), 'AT');
  t.equal(countryFromText('madarska'), 'HU');
  t.equal(countryFromText('Konferencija u Zagrebu; hotel (Zagreb)'), 'HR');
});

t.test('whole words only, longest name first, last place wins', async (t) => {
  t.equal(countryFromText('Novi Sad'), 'RS', 'not Sad');
  t.equal(countryFromText('Hotel London, Zagreb'), 'HR');
  t.equal(countryFromText('Zagreb - München'), 'DE');
  t.equal(countryFromText('Graz, Austria'), 'AT');
  t.equal(countryFromText('Parisian Café'), null, 'Paris inside a word is no match');
});

t.test('unknown or absent text yields null', async (t) => {
  t.equal(countryFromText('Timbuktu'), null);
  t.equal(countryFromText(''), null);
  t.equal(countryFromText(null), null);
  t.equal(countryFromText(undefined), null);
});
