// The scalar fields of a create, import or full replacement. Omitted optional fields come out
// null (a PUT clears them), including place ids: they survive only when sent back.
import { countryFromText } from '../shared/country-from-text.js';
import { dateOfInstant } from '../shared/dates.js';
import type { FieldErrorCollector } from '../shared/field-errors.js';
import { optionalText } from '../shared/text.js';
import type { AdvanceConversion, TravelEntryFields } from './commands.js';
import { TRAVEL_TYPES, type TravelEntryDetails, type TravelType } from './model.js';
import { Fields } from './validate-common.js';

/** The entry date a command will get (given, or today in UTC). */
export const effectiveEntryDate = (fields: Pick<TravelEntryFields, 'entryDate'>, now: string): string =>
  optionalText(fields.entryDate) ?? dateOfInstant(now);

/**
 * The date the shell must convert the advance at: advancePaymentDate, defaulting to the entry
 * date. Exposed so the shell computes AdvanceConversion exactly as the core will record it.
 */
export const advanceRateDate = (fields: Pick<TravelEntryFields, 'entryDate' | 'advancePaymentDate'>, now: string): string =>
  optionalText(fields.advancePaymentDate) ?? effectiveEntryDate(fields, now);

/**
 * The advance date a Czech entry's per diems take their exchange rate at: the advance's payment date
 * when an advance was paid (§183(2) ZP), else none, and the engine takes the day the trip starts
 * (§184). The payment date defaults to the entry date, so an entry without an advance took the rate
 * of the day it was keyed in, and the calculator (no advance) and the entry disagreed (the payroll
 * try, session 26). `advancePayment` as sent or stored: anything but a positive amount is no advance.
 */
export function perDiemAdvanceDate(
  fields: { advancePayment?: string | number | null; advancePaymentDate?: string | null; entryDate?: string | null },
  now: string,
): string | null {
  const paid = fields.advancePayment != null && Number(fields.advancePayment) > 0;
  return paid ? advanceRateDate(fields, now) : null;
}

export function validateDetails(
  input: TravelEntryFields & AdvanceConversion,
  now: string,
  errors: FieldErrorCollector,
): TravelEntryDetails {
  const f = new Fields(errors, '');
  const entryDate = f.date('entryDate', effectiveEntryDate(input, now)) ?? '';
  const departureDate = f.date('departureDate', input.departureDate);
  const returnDate = f.date('returnDate', input.returnDate);
  if (departureDate !== null && returnDate !== null && returnDate < departureDate) {
    errors.add('returnDate', 'Must not be before departureDate.');
  }
  const destination = f.text('destination', input.destination, 200);
  const givenCountry = f.country('destinationCountryCode', input.destinationCountryCode, false);
  const advancePaymentDate = f.date('advancePaymentDate', input.advancePaymentDate, false) ?? entryDate;
  const advancePayment = f.money('advancePayment', input.advancePayment, { required: false, min: 'zero' });
  const advanceSource = f.rateSource('advancePaymentExchangeRateSource', input.advancePaymentExchangeRateSource);
  return {
    entryDate,
    departureDate: departureDate ?? '',
    returnDate: returnDate ?? '',
    departureLocation: f.text('departureLocation', input.departureLocation, 200),
    departureLocationPlaceId: f.text('departureLocationPlaceId', input.departureLocationPlaceId, 300),
    destination,
    destinationPlaceId: f.text('destinationPlaceId', input.destinationPlaceId, 300),
    // Given: stored as is, no lookup. Absent: the offline gazetteer, null when it knows no place.
    destinationCountryCode: optionalText(input.destinationCountryCode) !== null ? givenCountry : countryFromText(destination),
    travelType: f.oneOf<TravelType>('travelType', input.travelType, TRAVEL_TYPES) ?? 'Domestic',
    purpose: f.text('purpose', input.purpose, 1000),
    report: f.text('report', input.report, 10000),
    preApprovalNote: f.text('preApprovalNote', input.preApprovalNote, 2000),
    vehicleId: f.text('vehicleId', input.vehicleId, 100),
    advancePayment: advancePayment ?? '0',
    currencyCode: f.currency('currencyCode', input.currencyCode) ?? '',
    advancePaymentDate,
    manualAdvanceExchangeRate: f.rate('manualAdvanceExchangeRate', input.manualAdvanceExchangeRate),
    advancePaymentInBaseCurrency:
      f.baseAmount('advancePaymentInBaseCurrency', input.advancePaymentInBaseCurrency, {
        amountField: 'advancePayment',
        amount: advancePayment,
        rateField: 'manualAdvanceExchangeRate',
        source: advanceSource,
      }) ?? '0',
    advancePaymentExchangeRateSource: advanceSource,
  };
}
