// The shell's part of an entry write: exchange rates. For the advance and each expense and per
// diem it looks up the tenant provider's rate for the row's date (or takes the manual rate when the
// provider publishes none) and converts with the decimal money rules. Rows the core will reject
// anyway (a malformed currency, date or amount) get no lookup; the core names those fields.
// Rate problems are collected per field, not thrown one by one, so a client sees them all.
import { DomainError, type FieldErrors } from '../../domain/errors.js';
import type { Db } from '../../infra/database.js';
import { resolveConversion, type Conversion } from '../../rates/conversion.js';
import { toDecimal } from '../../money/decimal.js';
import { fieldIn, messagesAt } from '../../domain/shared/field-errors.js';
import type {
  AdvanceConversion,
  ExpenseConversion,
  ExpenseFields,
  PerDiemConversion,
  PerDiemFields,
  TravelEntryFields,
} from '../../domain/travel-entries/index.js';
import { advanceRateDate } from '../../domain/travel-entries/index.js';
import { isCurrencyCode } from '../../domain/shared/currency-codes.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class RateErrors {
  readonly errors: FieldErrors = {};
  add(err: DomainError): void {
    for (const [k, v] of Object.entries(err.errors ?? {})) messagesAt(this.errors, k).push(...v);
  }
  get isEmpty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

/** Money as the core wants it: a decimal string (JSON numbers by their shortest decimal form). */
export const moneyText = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === 'number' ? String(v) : String(v);

function amountOf(v: unknown): ReturnType<typeof toDecimal> | undefined {
  try {
    return v === null || v === undefined ? undefined : toDecimal(v as string | number);
  } catch {
    return undefined;
  }
}

async function convert(
  db: Db,
  country: string,
  currency: unknown,
  date: unknown,
  manual: unknown,
  field: string,
  rateErrors: RateErrors,
): Promise<Conversion | undefined> {
  // A code that names no currency is the decider's 400 on the field alone, not also a missing rate.
  if (typeof currency !== 'string' || !isCurrencyCode(currency) || typeof date !== 'string' || !DATE.test(date)) return undefined;
  try {
    return await resolveConversion(db, { country, currency, date, manualRate: manual as string | number | null | undefined, field });
  } catch (err) {
    if (err instanceof DomainError && err.errors) {
      rateErrors.add(err);
      return undefined;
    }
    throw err;
  }
}

export async function advanceConversion(
  db: Db,
  country: string,
  f: TravelEntryFields,
  now: string,
  rateErrors: RateErrors,
): Promise<AdvanceConversion> {
  const amount = amountOf(f.advancePayment ?? '0');
  // No advance, nothing to convert: the row is same-value in any currency.
  if (amount === undefined || amount.isZero()) {
    return { advancePaymentInBaseCurrency: '0', advancePaymentExchangeRateSource: null };
  }
  const c = await convert(
    db,
    country,
    f.currencyCode,
    advanceRateDate(f, now),
    f.manualAdvanceExchangeRate,
    'manualAdvanceExchangeRate',
    rateErrors,
  );
  if (!c) return { advancePaymentInBaseCurrency: '0', advancePaymentExchangeRateSource: null };
  return { advancePaymentInBaseCurrency: c.amountInBase(amount).toFixed(2), advancePaymentExchangeRateSource: c.source };
}

export async function expenseConversion(
  db: Db,
  country: string,
  e: ExpenseFields,
  field: string,
  rateErrors: RateErrors,
): Promise<ExpenseConversion> {
  const amount = amountOf(e.amount);
  const c =
    amount === undefined
      ? undefined
      : await convert(db, country, e.currencyCode, e.date, e.manualExchangeRate, fieldIn(field, 'manualExchangeRate'), rateErrors);
  if (!c || amount === undefined) return { exchangeRate: null, exchangeRateSource: null, amountInBaseCurrency: '0' };
  return {
    exchangeRate: c.source === null ? null : c.rate,
    exchangeRateSource: c.source,
    amountInBaseCurrency: c.amountInBase(amount).toFixed(2),
  };
}

/** A per diem converts at the date of its departure. */
export async function perDiemConversion(
  db: Db,
  country: string,
  p: PerDiemFields,
  field: string,
  rateErrors: RateErrors,
): Promise<PerDiemConversion> {
  const date = typeof p.departureTime === 'string' ? p.departureTime.slice(0, 10) : undefined;
  const c = await convert(db, country, p.currencyCode, date, p.manualExchangeRate, fieldIn(field, 'manualExchangeRate'), rateErrors);
  return { exchangeRateSource: c?.source ?? null };
}
