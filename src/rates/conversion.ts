// The exchange-rate contract of the spec (Errors, EXCHANGE_RATE_UNAVAILABLE) in one function:
//  - the provider publishes a rate for the date (or within the fallback) → it is used, source = provider;
//  - a manual rate sent although an official one exists → 400 EXCHANGE_RATE_UNAVAILABLE on that field;
//  - no official rate and a manual rate → the manual rate, source MANUAL;
//  - neither → 400 EXCHANGE_RATE_UNAVAILABLE on that field, so the client can ask for a manual rate.
// The base currency converts at 1 with source null; a manual rate there is refused the same way,
// because a rate (the identity) is always available for it.
import { DomainError, validationError } from '../domain/errors.js';
import type { Db } from '../infra/database.js';
import { DecimalFormatError, toBaseCurrency, toDecimal, type Dec, type DecimalInput, type RateDirection } from '../money/decimal.js';
import { findRate } from './lookup.js';
import { providerForCountry, type ProviderCode } from './providers.js';
import { FALLBACK_DAYS } from './rate-date.js';

import { EXCHANGE_RATE_UNAVAILABLE } from '../domain/travel-entries/index.js';

export { EXCHANGE_RATE_UNAVAILABLE };

export interface ConversionRequest {
  /** Tenant country (HR, SI, SK, CZ): selects the provider. */
  readonly country: string;
  /** Currency of the amount. */
  readonly currency: string;
  /** Rate date, yyyy-MM-dd (advance payment date, expense date). */
  readonly date: string;
  /** `manualExchangeRate` / `manualAdvanceExchangeRate`, in the provider's direction and per 1 unit. */
  readonly manualRate?: DecimalInput | null | undefined;
  /** Request field the errors are keyed by, e.g. `expenses[0].manualExchangeRate`. */
  readonly field: string;
}

export type RateSource = ProviderCode | 'MANUAL' | null;

export interface Conversion {
  readonly rate: string;
  readonly units: number;
  readonly direction: RateDirection;
  readonly baseCurrency: string;
  /** Provenance for `exchangeRateSource`: provider code, MANUAL, or null for the base currency. */
  readonly source: RateSource;
  /** Publication date of the applied official rate; null for a manual rate. */
  readonly rateDate: string | null;
  /** The amount in the base currency, rounded by the money rule (2 places, half-up). */
  amountInBase(amount: DecimalInput): Dec;
}

function conversion(c: Omit<Conversion, 'amountInBase'>): Conversion {
  return { ...c, amountInBase: (amount) => toBaseCurrency(amount, c) };
}

const unavailable = (field: string, message: string): DomainError =>
  new DomainError(EXCHANGE_RATE_UNAVAILABLE, message, { [field]: [message] });

function manualRateOf(value: DecimalInput, field: string): Dec {
  let d: Dec;
  try {
    d = toDecimal(value);
  } catch (e) {
    if (e instanceof DecimalFormatError) throw validationError({ [field]: ['must be a positive decimal number'] });
    throw e;
  }
  if (!d.greaterThan(0)) throw validationError({ [field]: ['must be a positive decimal number'] });
  return d;
}

export async function resolveConversion(db: Db, req: ConversionRequest): Promise<Conversion> {
  const provider = providerForCountry(req.country);
  const currency = req.currency.toUpperCase();
  const manual = req.manualRate ?? undefined;
  const official = await findRate(db, { provider: provider.code, currency, date: req.date });

  if (official !== null) {
    if (manual !== undefined) {
      const what =
        official.source === null
          ? `${currency} is the base currency of ${provider.code}; it converts at 1`
          : `${provider.code} publishes a ${currency} rate for ${req.date} (list of ${official.date})`;
      throw unavailable(
        req.field,
        `${what}, so a manual exchange rate is not accepted. A manual rate is honoured only when the provider publishes none.`,
      );
    }
    return conversion({
      rate: official.rate,
      units: official.units,
      direction: official.direction,
      baseCurrency: official.baseCurrency,
      source: official.source,
      rateDate: official.source === null ? null : official.date,
    });
  }
  if (manual !== undefined) {
    return conversion({
      rate: manualRateOf(manual, req.field).toFixed(),
      units: 1,
      direction: provider.direction,
      baseCurrency: provider.baseCurrency,
      source: 'MANUAL',
      rateDate: null,
    });
  }
  throw unavailable(
    req.field,
    `${provider.code} publishes no ${currency} rate for ${req.date} or the ${FALLBACK_DAYS} days before; send a manual exchange rate.`,
  );
}
