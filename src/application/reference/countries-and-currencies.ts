// The ISO lists behind GET /api/v1/reference/countries and /currencies and behind the company's
// enabled lists: countries from i18n-iso-countries (English names; XK Kosovo included, as in
// src/domain/shared/country-codes.ts), currencies from currency-codes (the ISO 4217 list one),
// without the codes that are not money a traveller pays in (metals, bond units, fund codes, tests).
// Built once, on first use.
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import currencyCodes from 'currency-codes';
import { COUNTRY_CODES } from '../../domain/shared/country-codes.js';
import { NEWER_CURRENCIES } from '../../domain/shared/currency-codes.js';

export interface CountryRef {
  code: string;
  name: string;
}
export interface CurrencyRef {
  code: string;
  name: string;
}

/** ISO 4217 codes that name no currency of a country: precious metals, bond-market units, SDR, funds, tests. */
const NOT_MONEY = new Set([
  'XAU',
  'XAG',
  'XPD',
  'XPT',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XSU',
  'XUA',
  'XTS',
  'XXX',
  'BOV',
  'CHE',
  'CHW',
  'CLF',
  'COU',
  'MXV',
  'USN',
  'UYI',
  'UYW',
]);

let countryList: readonly CountryRef[] | undefined;
let currencyList: readonly CurrencyRef[] | undefined;

/** Every country the API accepts (ISO 3166-1 alpha-2 and XK), by code. */
export function countryCatalog(): readonly CountryRef[] {
  if (countryList === undefined) {
    const require = createRequire(import.meta.url);
    countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
    const names = countries.getNames('en', { select: 'official' });
    countryList = [...COUNTRY_CODES].sort().map((code) => ({ code, name: names[code] ?? code }));
  }
  return countryList;
}

/** Every ISO 4217 currency a traveller can pay in, by code. */
export function currencyCatalog(): readonly CurrencyRef[] {
  if (currencyList === undefined) {
    currencyList = [
      ...currencyCodes.data.filter((c) => !NOT_MONEY.has(c.code)).map((c) => ({ code: c.code, name: c.currency })),
      ...[...NEWER_CURRENCIES].map(([code, name]) => ({ code, name })),
    ].sort((a, b) => (a.code < b.code ? -1 : 1));
  }
  return currencyList;
}
