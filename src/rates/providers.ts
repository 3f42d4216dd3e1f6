// The three central-bank feeds and which tenant country uses which (spec: "Provider by tenant
// country"). Everything provider-specific that is not parsing lives in this table.
import type { RateDirection } from '../money/decimal.js';

export type ProviderCode = 'HNB' | 'ECB' | 'CNB';
export const PROVIDER_CODES: readonly ProviderCode[] = ['HNB', 'ECB', 'CNB'];

export interface Provider {
  readonly code: ProviderCode;
  /** The provider's reference currency: every rate converts into it. */
  readonly baseCurrency: 'EUR' | 'CZK';
  readonly direction: RateDirection;
  /** Public URL the daily fetch reads (research note perdiem.md section 6). */
  readonly url: string;
}

export const PROVIDERS: Readonly<Record<ProviderCode, Provider>> = {
  // HNB v3 without parameters answers the latest list: an array of rows, decimal commas.
  HNB: { code: 'HNB', baseCurrency: 'EUR', direction: 'ForeignPerBase', url: 'https://api.hnb.hr/tecajn-eur/v3' },
  // The 90-day file rather than the daily one, so a fetch after an outage also fills the gap.
  ECB: {
    code: 'ECB',
    baseCurrency: 'EUR',
    direction: 'ForeignPerBase',
    url: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml',
  },
  // The Czech text file of the latest fixing ("CZK per množství units").
  CNB: {
    code: 'CNB',
    baseCurrency: 'CZK',
    direction: 'BasePerForeign',
    url: 'https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/denni_kurz.txt',
  },
};

// SI and SK are euro countries converting at the ECB reference rates (NBS and Banka Slovenije only
// republish them); HR uses HNB's list, which carries the same ECB figures one working day later.
const BY_COUNTRY: Readonly<Record<string, ProviderCode>> = { HR: 'HNB', SI: 'ECB', SK: 'ECB', CZ: 'CNB' };

export function isProviderCode(value: string): value is ProviderCode {
  return (PROVIDER_CODES as readonly string[]).includes(value);
}

/** The provider of a tenant country (ISO 3166-1 alpha-2). Other countries are not served. */
export function providerForCountry(country: string): Provider {
  const code = BY_COUNTRY[country.toUpperCase()];
  if (code === undefined) throw new RangeError(`No exchange-rate provider for tenant country "${country}" (served: HR, SI, SK, CZ)`);
  return PROVIDERS[code];
}
