// Provenance of an applied exchange rate (spec: provider code, `MANUAL`, or null for a
// same-currency row). Provider by tenant country: HNB for HR, ECB for SI and SK, CNB for CZ.

export const EXCHANGE_RATE_SOURCES = ['HNB', 'ECB', 'CNB', 'MANUAL'] as const;
export type ExchangeRateSource = (typeof EXCHANGE_RATE_SOURCES)[number];

export const isExchangeRateSource = (value: unknown): value is ExchangeRateSource =>
  (EXCHANGE_RATE_SOURCES as readonly unknown[]).includes(value);
