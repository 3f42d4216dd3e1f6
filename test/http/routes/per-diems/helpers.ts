// Shared by the per-diem HTTP tests: itinerary stops, the calculator call, the exchange-rate fixtures
// the laws need, and the calculator row as the entry stores it.
import { formatPosition } from '../../../../src/eventstore/port.js';
import { importRatesFile, importRatesText } from '../../../../src/rates/import-command.js';
import { CNB_2025_04_25, ECB_DAILY, ECB_HIST, fixturePath, HNB_RANGE, readFixture } from '../../../rates/fixture-files.js';
import type { TestApp, TestResponse } from '../../../helpers/app.js';

export const CALCULATOR = '/api/v1/utilities/per-diems/calculate';

export interface Stop {
  countryCode: string;
  time: string;
  timeZone?: string;
}

export const stop = (countryCode: string, time: string, timeZone?: string): Stop => ({
  countryCode,
  time,
  ...(timeZone ? { timeZone } : {}),
});

export function calculate(app: TestApp, body: unknown, key?: string): Promise<TestResponse> {
  return app.request('POST', CALCULATOR, { body, ...(key ? { key } : {}) });
}

/** The figures of a computed row that a hand calculation checks. */
export function figures(r: any) {
  return {
    countryCode: r.countryCode,
    departureTime: r.departureTime,
    arrivalTime: r.arrivalTime,
    hours: r.hours,
    units: r.units,
    rate: r.rate,
    currencyCode: r.currencyCode,
    mealReduction: r.mealReduction,
    amount: r.amount,
    amountInBaseCurrency: r.amountInBaseCurrency,
  };
}

/** [countryCode, departureTime, amount] of each row: the short form for many-row answers. */
export const amounts = (body: any): [string, string, number][] => body.perDiems.map((r: any) => [r.countryCode, r.departureTime, r.amount]);

/**
 * HNB 11–17 Apr 2025 (HR: USD 1.1346 on the 14th), ECB 9–17 Apr 2025 (SI: USD 1.1355 on the
 * 16th), CNB 25 Apr 2025 (CZ: EUR 24.930), and the ECB list of 11 Apr 2025 re-dated to 1 Apr 2025
 * (synthetic: SK converts at the rate of the 1st of the month the trip started; CZK 25.147).
 */
export async function importRateFixtures(app: TestApp, which: { hnb?: boolean } = {}): Promise<void> {
  const db = app.rt.handle.db;
  if (which.hnb !== false) await importRatesFile(db, 'HNB', fixturePath(HNB_RANGE));
  await importRatesFile(db, 'ECB', fixturePath(ECB_HIST));
  await importRatesFile(db, 'CNB', fixturePath(CNB_2025_04_25));
  await importRatesText(db, 'ECB', readFixture(ECB_DAILY).replace("time='2025-04-11'", "time='2025-04-01'"));
}

export async function importHnb(app: TestApp): Promise<void> {
  await importRatesFile(app.rt.handle.db, 'HNB', fixturePath(HNB_RANGE));
}

export async function employee(app: TestApp, key?: string): Promise<string> {
  const res = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Per', lastName: 'Diem' }, ...(key ? { key } : {}) });
  if (res.status !== 201) throw new Error(`employee: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Where the event store ends now (compare before and after to see that nothing was appended). */
export async function storeHead(app: TestApp): Promise<string> {
  const head = await app.rt.store.headPosition();
  return head === undefined ? 'empty' : formatPosition(head);
}

/** A calculator row as from-itinerary stores it on the entry (UTC instants, wall clock beside them). */
export function asStored(r: any) {
  return {
    countryCode: r.countryCode,
    departureTime: r.departureTimeUtc,
    arrivalTime: r.arrivalTimeUtc,
    departureTimeLocal: r.departureTime,
    arrivalTimeLocal: r.arrivalTime,
    breakfastsProvided: r.breakfastsProvided,
    lunchesProvided: r.lunchesProvided,
    dinnersProvided: r.dinnersProvided,
    mealsProvided: r.mealsProvided,
    currencyCode: r.currencyCode,
    amount: r.amount,
    statutoryAmount: r.amount,
    overrideAmount: null,
    rate: r.rate,
    units: r.units,
    hours: r.hours,
    mealReduction: r.mealReduction,
    exchangeRate: r.exchangeRate,
    exchangeRateDate: r.exchangeRateDate,
    exchangeRateSource: r.exchangeRateSource,
    amountInBaseCurrency: r.amountInBaseCurrency,
    rule: r.rule,
  };
}

/** The same fields of a stored per diem. */
export function storedFields(p: any) {
  const keys = Object.keys(asStored({})) as (keyof ReturnType<typeof asStored>)[];
  return Object.fromEntries(keys.map((k) => [k, p[k]]));
}
