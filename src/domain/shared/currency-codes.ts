// The currency codes the API accepts. Three upper-case letters is only the shape: "XYZ" has it and
// names nothing, and with a manual exchange rate it used to be stored. The list is ISO 4217's money
// a traveller pays in: the reference catalog (src/application/reference/countries-and-currencies.ts,
// from the currency-codes package; test/domain/shared/currency-codes.test.ts holds the two equal,
// as the domain imports no package), with the codes ISO added after that package's release. Added to
// it: the region's former currencies, which entries, per diems and imported rate tables from before
// the euro name (the Croatian kuna until 2022, the Slovenian tolar until 2006, the Slovak koruna
// until 2008; docs/decisions.md, "Currency codes checked against ISO 4217").

const ISO_4217_MONEY = `
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP
GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD
KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK
NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD
SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF
XCD XOF XPF YER ZAR ZMW ZWG`;

/** In ISO 4217 since after the currency-codes release the catalog uses: the Caribbean guilder (2025). */
export const NEWER_CURRENCIES: ReadonlyMap<string, string> = new Map([['XCG', 'Caribbean Guilder']]);

/** Withdrawn from ISO 4217's current list, still named by the region's older records. */
export const FORMER_CURRENCIES: ReadonlySet<string> = new Set(['HRK', 'SIT', 'SKK']);

export const CURRENCY_CODES: ReadonlySet<string> = new Set([
  ...ISO_4217_MONEY.trim().split(/\s+/),
  ...NEWER_CURRENCIES.keys(),
  ...FORMER_CURRENCIES,
]);

/** True for an accepted currency code, upper case (codes are canonical). */
export const isCurrencyCode = (value: string): boolean => CURRENCY_CODES.has(value);
