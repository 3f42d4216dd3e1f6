// A per diem sent on its own (added, changed, or in an entry create or replacement) is computed by
// the engine as a one-leg itinerary: its UTC instants become wall-clock times of its country, the
// engine's rows (one, or one per calendar day for CZ and SK) are summed into the stored row, and a
// submitted amount is never trusted. The meals go to the rows by the per-day allocation when there
// is one, else one of each kind a day in order (the rest on the last day).
import { DomainError } from '../../domain/errors.js';
import type { PerDiemLaw, PerDiemResult, PerDiemRow, RowMeals } from '../../domain/per-diems/index.js';
import { lawExchangeRateDate, utcToWall } from '../../domain/per-diems/index.js';
import { isCountryCode } from '../../domain/shared/country-codes.js';
import { isDate, isUtcInstant } from '../../domain/shared/dates.js';
import { baseAmountProblem } from '../../domain/shared/base-amount.js';
import type { PerDiemConversion, PerDiemFields } from '../../domain/travel-entries/index.js';
import { resolveMealCounts } from '../../domain/travel-entries/per-diem-meals.js';
import { Fields } from '../../domain/travel-entries/validate-common.js';
import { FieldErrorCollector, fieldIn, messagesAt } from '../../domain/shared/field-errors.js';
import { Dec, formatMoney, toDecimal } from '../../money/decimal.js';
import { convertForLaw, type PerDiemCalculator } from './calculator.js';

/** Where a refusal of the engine is reported, keyed by the per diem's own fields. */
export interface RowProblems {
  lookupErrors: Record<string, string[]>;
  perDiemRateErrors: Record<string, string[]>;
  rateErrors: Record<string, string[]>;
}

const add = (errors: Record<string, string[]>, key: string, messages: readonly string[]): void => {
  messagesAt(errors, key).push(...messages);
};

export async function statutoryPerDiem(
  calc: PerDiemCalculator,
  law: PerDiemLaw,
  p: PerDiemFields,
  advancePaymentDate: string | null,
  field: string,
  problems: RowProblems,
): Promise<PerDiemConversion> {
  const none: PerDiemConversion = { exchangeRateSource: null, statutory: null };
  // Malformed rows are left to the core, which names every field.
  if (typeof p.countryCode !== 'string' || !isCountryCode(p.countryCode)) return none;
  if (typeof p.departureTime !== 'string' || !isUtcInstant(p.departureTime)) return none;
  if (typeof p.arrivalTime !== 'string' || !isUtcInstant(p.arrivalTime) || Date.parse(p.arrivalTime) <= Date.parse(p.departureTime))
    return none;
  const zones = calc.zonesOf(p.countryCode);
  const zone = p.timeZone ?? zones?.defaultZone ?? null;
  if (zone === null || (p.timeZone && !zones?.zones.includes(p.timeZone))) {
    add(problems.lookupErrors, fieldIn(field, 'timeZone'), [
      `Name one of the time zones of ${p.countryCode}: ${zones?.zones.join(', ') ?? ''}.`,
    ]);
    return none;
  }
  const stops = [
    { countryCode: p.countryCode, time: utcToWall(Date.parse(p.departureTime), zone), timeZone: zone },
    { countryCode: p.countryCode, time: utcToWall(Date.parse(p.arrivalTime), zone), timeZone: zone },
  ];
  const manual = p.manualExchangeRate ?? null;
  let result: PerDiemResult;
  try {
    const preview = await calc.calculate(law, { stops, advancePaymentDate }, manual);
    const strayDays = daysOutside(preview.perDiems, p, field);
    if (Object.keys(strayDays).length > 0) {
      for (const [key, messages] of Object.entries(strayDays)) add(problems.lookupErrors, key, messages);
      return none;
    }
    result = await calc.calculate(law, { stops, advancePaymentDate, meals: mealsFor(preview.perDiems, p) }, manual);
  } catch (err) {
    if (!(err instanceof DomainError) || err.errors === undefined) throw err;
    const target =
      err.code === 'PER_DIEM_RATE_UNAVAILABLE'
        ? problems.perDiemRateErrors
        : err.code === 'EXCHANGE_RATE_UNAVAILABLE'
          ? problems.rateErrors
          : problems.lookupErrors;
    for (const [key, messages] of Object.entries(err.errors)) add(target, rowField(key, field, err.code), messages);
    return none;
  }
  const rows = result.perDiems;
  const converted = rows.find((r) => r.exchangeRateSource !== null);
  if (manual !== null && converted?.exchangeRateSource !== 'MANUAL') {
    const why = converted
      ? `${converted.exchangeRateSource} publishes a ${converted.currencyCode} rate for ${converted.exchangeRateDate}`
      : `the statutory amount is in ${result.baseCurrency}, the base currency`;
    add(problems.rateErrors, fieldIn(field, 'manualExchangeRate'), [`${why}, so a manual exchange rate is not accepted.`]);
    return none;
  }
  const currencyCode = (rows.find((r) => r.amount !== '0.00') ?? rows[0])!.currencyCode;
  const statutoryAmount = sum(rows.map((r) => r.amount));
  // An override is paid in the statutory currency: converted at the law's date like the rows.
  const paid = p.overrideAmount ?? null;
  let amountInBase = sum(rows.map((r) => r.amountInBaseCurrency));
  let rate = {
    exchangeRate: converted?.exchangeRate ?? null,
    exchangeRateDate: converted?.exchangeRateDate ?? null,
    source: converted?.exchangeRateSource ?? null,
  };
  if (paid !== null) {
    const first = rows[0]!.departureTime.slice(0, 10);
    const trip = { first, last: rows[rows.length - 1]!.arrivalTime.slice(0, 10), advance: advancePaymentDate };
    try {
      const c = await convertForLaw(calc, law, {
        currency: currencyCode,
        date: lawExchangeRateDate(law, trip, first),
        manualRate: manual,
        field: fieldIn(field, 'manualExchangeRate'),
      });
      amountInBase = formatMoney(c.amountInBase(toDecimal(paid)));
      if (c.source !== null) rate = { exchangeRate: c.rate, exchangeRateDate: c.rateDate, source: c.source };
    } catch (err) {
      if (!(err instanceof DomainError) || err.errors === undefined) throw err;
      for (const [key, messages] of Object.entries(err.errors)) add(problems.rateErrors, key, messages);
      return none;
    }
  }
  // The base amount is bounded as an expense's is: keyed by the manual rate when there is one, else
  // by the override (a statutory amount is never near the bound).
  const problem = baseAmountProblem(amountInBase, {
    positiveAmount: new Dec(paid ?? statutoryAmount).greaterThan(0),
    manualRate: manual !== null,
  });
  if (problem !== null) {
    add(problems.lookupErrors, fieldIn(field, manual !== null ? 'manualExchangeRate' : 'overrideAmount'), [problem]);
    return none;
  }
  return {
    exchangeRateSource: rate.source as PerDiemConversion['exchangeRateSource'],
    statutory: {
      currencyCode,
      statutoryAmount,
      rate: (rows.find((r) => r.units !== '0') ?? rows[0])!.rate,
      units: sumUnits(rows.map((r) => r.units)),
      hours: sumPlain(rows.map((r) => r.hours)),
      mealReduction: sum(rows.map((r) => r.mealReduction)),
      departureTimeLocal: rows[0]!.departureTime,
      arrivalTimeLocal: rows[rows.length - 1]!.arrivalTime,
      timeZone: zone,
      exchangeRate: rate.exchangeRate,
      exchangeRateDate: rate.exchangeRateDate,
      amountInBaseCurrency: amountInBase,
      rule: [...new Set(rows.map((r) => r.rule))].join('; '),
      rateTableRevision: result.rateTables.revision,
    },
  };
}

/** Units summed with the engine's rounded thirds (0.3333, 0.6667) taken as the thirds they are. */
function sumUnits(values: readonly string[]): string {
  const total = values.reduce((acc, v) => {
    const thirds = new Dec(v).times(3);
    return acc.plus(thirds.minus(thirds.round()).abs().lessThan('0.001') ? thirds.round().dividedBy(3) : new Dec(v));
  }, new Dec(0));
  return total
    .toDecimalPlaces(4)
    .toFixed()
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

const sum = (values: readonly string[]): string => formatMoney(values.reduce((acc, v) => acc.plus(v), new Dec(0)));
const sumPlain = (values: readonly string[]): string => values.reduce((acc, v) => acc.plus(v), new Dec(0)).toFixed();

/** The engine's stop fields in terms of the per diem's own. */
function rowField(key: string, field: string, code: string): string {
  const m = /^stops\[(\d+)\]\.(\w+)$/.exec(key);
  if (m === null) return field;
  if (m[2] === 'time') return fieldIn(field, m[1] === '0' ? 'departureTime' : 'arrivalTime');
  if (m[2] === 'timeZone') return fieldIn(field, 'timeZone');
  return code === 'EXCHANGE_RATE_UNAVAILABLE' ? fieldIn(field, 'manualExchangeRate') : fieldIn(field, m[2]!);
}

/**
 * Days of a per-day meal allocation that are not days of the per diem (its first to its last day,
 * as wall-clock dates of its country), keyed by the allocation's field: a meal there would
 * otherwise be counted on some other day and change the amount.
 */
function daysOutside(rows: readonly PerDiemRow[], p: PerDiemFields, field: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (rows.length === 0 || !Array.isArray(p.mealsProvidedAllocation)) return errors;
  const first = rows[0]!.departureTime.slice(0, 10);
  const last = rows[rows.length - 1]!.arrivalTime.slice(0, 10);
  p.mealsProvidedAllocation.forEach((day, i) => {
    if (typeof day?.date !== 'string' || !isDate(day.date) || (day.date >= first && day.date <= last)) return;
    errors[fieldIn(field, `mealsProvidedAllocation[${i}].date`)] = [
      `Not a day of this per diem: it runs from ${first} to ${last}, in ${rows[0]!.countryCode} time.`,
    ];
  });
  return errors;
}

function mealsFor(rows: readonly PerDiemRow[], p: PerDiemFields): RowMeals[] {
  const counts = resolveMealCounts(p, new Fields(new FieldErrorCollector(), ''));
  const keyed = rows.map((r) => ({
    countryCode: r.countryCode,
    departureTime: r.departureTime,
    breakfastsProvided: 0,
    lunchesProvided: 0,
    dinnersProvided: 0,
  }));
  if (keyed.length === 0) return [];
  const allocation = p.mealsProvidedAllocation ?? null;
  if (allocation !== null && keyed.length > 1) {
    for (const day of allocation) {
      const row = keyed.find((r) => r.departureTime.slice(0, 10) === day.date) ?? keyed[keyed.length - 1]!;
      row.breakfastsProvided += day.breakfastsProvided ?? 0;
      row.lunchesProvided += day.lunchesProvided ?? 0;
      row.dinnersProvided += day.dinnersProvided ?? 0;
    }
    return keyed;
  }
  const spread = (n: number, kind: 'breakfastsProvided' | 'lunchesProvided' | 'dinnersProvided'): void => {
    keyed.forEach((r, i) => {
      const take = i === keyed.length - 1 ? n : Math.min(1, n);
      r[kind] += take;
      n -= take;
    });
  };
  spread(counts.breakfastsProvided, 'breakfastsProvided');
  spread(counts.lunchesProvided, 'lunchesProvided');
  spread(counts.dinnersProvided, 'dinnersProvided');
  return keyed;
}
