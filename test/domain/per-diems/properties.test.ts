// Properties of the per-diem engine over random itineraries (2–6 stops in 2026, countries with
// known rates, exchange rates fixed for all dates):
//   1. returning later never pays less — where the law implies it (see the exceptions below);
//   2. one more provided meal never raises an amount;
//   3. no amount is negative.
// The law itself lets a later return pay less in four places, tested at the end of this file:
// CZ §170(3) (Czech time reaching 5 h takes the foreign third away), HR's short-stay rule (a stay
// passing 12 h takes its own, possibly lower, rate), SK §13(5) (the country with the most hours
// decides the rate) and the SI cap (a longer trip's cap keeps a whole domestic day in place of a
// better-paid partial abroad). Property 1 therefore runs on pools of foreign countries with one rate (so
// the most-hours and short-stay rules cannot change the rate), for CZ on trips that end abroad
// or stay at home, and for SI on trips that end abroad (the SI cap order is an open point).
import fc from 'fast-check';
import t, { type Test } from 'tap';
import type { PerDiemLaw, PerDiemResult } from '../../../src/domain/per-diems/index.js';
import { calc, meal, zonesOf, type S } from './helpers.js';

const RUNS = 150;
const T0 = Date.UTC(2026, 0, 5);
const MINUTE = 60_000;

// Autumn 2026: wall times 02:00–03:00 (CE(S)T) occur twice; keep generated instants out of that hour.
const AMBIGUOUS_FROM = Date.UTC(2026, 9, 25, 0);
const AMBIGUOUS_TO = Date.UTC(2026, 9, 25, 2);
const unambiguous = (ms: number): boolean => ms < AMBIGUOUS_FROM || ms >= AMBIGUOUS_TO;

const walls = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of a zone at an instant, `yyyy-MM-ddTHH:mm` (independent of the engine's code). */
function wallIn(zone: string, ms: number): string {
  let f = walls.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    walls.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

const zoneOf = (country: string): string => zonesOf(country)!.defaultZone!;

interface Trip {
  countries: string[];
  /** Instants of the stops (strictly increasing). */
  at: number[];
}

const toStops = (trip: Trip): S[] => trip.countries.map((c, i) => [c, wallIn(zoneOf(c), trip.at[i]!)] as const);

/**
 * Random trips from home: stop 0 and the last stop at home, the others from `pool` or home; legs of
 * 1 min to 40 h. `lastLeg` forces the country of the last leg (the one a later return lengthens).
 */
function trips(home: string, pool: readonly string[], lastLeg: 'any' | 'abroad' | 'home' = 'any'): fc.Arbitrary<Trip> {
  const middle = lastLeg === 'home' ? [home] : [home, ...pool];
  return fc
    .record({
      n: fc.integer({ min: lastLeg === 'abroad' ? 3 : 2, max: 6 }),
      countries: fc.array(fc.constantFrom(...middle), { minLength: 6, maxLength: 6 }),
      last: pool.length > 0 ? fc.constantFrom(...pool) : fc.constant(home),
      gaps: fc.array(fc.integer({ min: 1, max: 40 * 60 }), { minLength: 6, maxLength: 6 }),
      start: fc.integer({ min: 0, max: 330 * 24 * 60 }),
    })
    .map(({ n, countries, last, gaps, start }) => {
      const list = [home, ...countries.slice(0, n - 2), home];
      if (lastLeg === 'abroad') list[n - 2] = last;
      const at: number[] = [T0 + start * MINUTE];
      for (let i = 1; i < n; i++) at.push(at[i - 1]! + gaps[i]! * MINUTE);
      return { countries: list, at };
    })
    .filter((trip) => trip.at.every(unambiguous));
}

const later = (trip: Trip, minutes: number): Trip => ({
  countries: trip.countries,
  at: trip.at.map((ms, i) => (i === trip.at.length - 1 ? ms + minutes * MINUTE : ms)),
});

const total = (r: PerDiemResult): number => Number(r.totals.inBaseCurrency);

/** Property 1 for one law and generator. */
function laterNeverLess(t: Test, law: PerDiemLaw, arb: fc.Arbitrary<Trip>, name: string): void {
  t.test(`${law}: returning later never pays less (${name})`, async (t) => {
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 48 * 60 }), (trip, minutes) => {
        const moved = later(trip, minutes);
        fc.pre(unambiguous(moved.at[moved.at.length - 1]!));
        const before = calc(law, toStops(trip));
        const after = calc(law, toStops(moved));
        if (total(after) < total(before)) {
          throw new Error(
            `${JSON.stringify(toStops(trip))} pays ${before.totals.inBaseCurrency}; ${minutes} min later ${after.totals.inBaseCurrency}`,
          );
        }
      }),
      { numRuns: RUNS },
    );
    t.pass('no counterexample');
  });
}

// Pools with one rate each: HR NN 16/2024 90 EUR; SI annex 55 EUR; CZ 2026 50 EUR; SK 401/2012 45 EUR.
const EQUAL: Record<PerDiemLaw, string[]> = {
  HR: ['AT', 'FR', 'BE', 'DK', 'FI', 'IE'],
  SI: ['AT', 'DE', 'IT', 'FR'],
  CZ: ['DE', 'BE', 'AD', 'AM'],
  SK: ['AT', 'DE', 'IT', 'FR', 'BE', 'NL'],
};
// Pools of every rate and currency the tables know (properties 2 and 3).
const MIXED: Record<PerDiemLaw, string[]> = {
  HR: ['AT', 'BA', 'CZ', 'FR', 'AR'],
  SI: ['AT', 'DE', 'HR', 'HU', 'CZ', 'BE', 'JP'],
  CZ: ['DE', 'BE', 'BA', 'BG', 'SK', 'AM', 'AR'],
  SK: ['AT', 'DE', 'HU', 'PL', 'SI', 'HR', 'CZ', 'GB'],
};

laterNeverLess(t, 'HR', trips('HR', EQUAL.HR), 'any trip, one foreign rate');
laterNeverLess(t, 'SI', trips('SI', EQUAL.SI, 'abroad'), 'trips ending abroad, one foreign rate');
laterNeverLess(t, 'SI', trips('SI', [], 'home'), 'domestic trips');
laterNeverLess(t, 'CZ', trips('CZ', [], 'home'), 'domestic trips, with the §163(4) merge');
laterNeverLess(t, 'CZ', trips('CZ', EQUAL.CZ, 'abroad'), 'trips ending abroad, one foreign rate');
laterNeverLess(t, 'SK', trips('SK', EQUAL.SK), 'any trip, one foreign rate');

/** Meals on some rows: `[rowIndex, breakfasts, lunches, dinners]`. */
const mealSets = fc.array(fc.tuple(fc.nat(40), fc.nat(2), fc.nat(2), fc.nat(2)), { maxLength: 4 });

function mealsFor(r: PerDiemResult, picks: readonly (readonly [number, number, number, number])[]) {
  const byRow = new Map<number, [number, number, number]>();
  for (const [row, b, l, d] of picks) {
    const i = row % r.perDiems.length;
    const [b0, l0, d0] = byRow.get(i) ?? [0, 0, 0];
    byRow.set(i, [b0 + b, l0 + l, d0 + d]);
  }
  return [...byRow].map(([i, [b, l, d]]) => meal(r.perDiems[i]!.countryCode, r.perDiems[i]!.departureTime, b, l, d));
}

/** A CZ trip only at home within exactly two calendar days may move its amount between rows (§163(4)). */
const mayMoveAmount = (law: PerDiemLaw, trip: Trip): boolean =>
  law === 'CZ' && trip.countries.every((c) => c === 'CZ') && new Set(toStops(trip).map(([, time]) => time.slice(0, 10))).size <= 2;

for (const law of ['HR', 'SI', 'CZ', 'SK'] as const) {
  t.test(`${law}: one more provided meal never raises an amount`, async (t) => {
    fc.assert(
      fc.property(trips(law, MIXED[law]), mealSets, fc.nat(40), fc.constantFrom(0, 1, 2), (trip, picks, row, kind) => {
        const stops = toStops(trip);
        const plain = calc(law, stops);
        const meals = mealsFor(plain, picks);
        const before = calc(law, stops, { meals });
        const target = plain.perDiems[row % plain.perDiems.length]!;
        const existing = meals.find((m) => m.countryCode === target.countryCode && m.departureTime === target.departureTime);
        const counts: [number, number, number] = existing
          ? [existing.breakfastsProvided ?? 0, existing.lunchesProvided ?? 0, existing.dinnersProvided ?? 0]
          : [0, 0, 0];
        counts[kind]! += 1;
        const more = [
          ...meals.filter((m) => m !== existing),
          meal(target.countryCode, target.departureTime, counts[0], counts[1], counts[2]),
        ];
        const after = calc(law, stops, { meals: more });
        if (total(after) > total(before)) throw new Error(`total rose: ${before.totals.inBaseCurrency} -> ${after.totals.inBaseCurrency}`);
        if (mayMoveAmount(law, trip)) return;
        before.perDiems.forEach((b, i) => {
          const a = after.perDiems[i]!;
          if (Number(a.amount) > Number(b.amount)) throw new Error(`row ${i} rose: ${b.amount} -> ${a.amount} (${JSON.stringify(stops)})`);
        });
      }),
      { numRuns: RUNS },
    );
    t.pass('no counterexample');
  });

  t.test(`${law}: no amount is negative`, async (t) => {
    const heavy = fc.array(fc.tuple(fc.nat(40), fc.nat(5), fc.nat(5), fc.nat(5)), { maxLength: 6 });
    fc.assert(
      fc.property(trips(law, MIXED[law]), heavy, (trip, picks) => {
        const stops = toStops(trip);
        const r = calc(law, stops, { meals: mealsFor(calc(law, stops), picks) });
        for (const row of r.perDiems) {
          for (const field of ['amount', 'amountInBaseCurrency', 'mealReduction', 'units', 'hours', 'rate'] as const) {
            if (Number(row[field]) < 0 || Number.isNaN(Number(row[field])))
              throw new Error(`${field} ${row[field]} in ${JSON.stringify(stops)}`);
          }
        }
        if (total(r) < 0) throw new Error(`total ${r.totals.inBaseCurrency}`);
        for (const v of Object.values(r.totals.byCurrency)) if (Number(v) < 0) throw new Error(`by currency ${v}`);
      }),
      { numRuns: RUNS },
    );
    t.pass('no counterexample');
  });
}

// Where the law itself makes a later return pay less (so property 1 is not a law for every trip).

t.test('CZ §170(3): one more minute at home can take the foreign third away (16.67 EUR -> 155 CZK)', async (t) => {
  const trip = (back: string) =>
    calc('CZ', [
      ['CZ', '2026-05-04T06:00'],
      ['DE', '2026-05-04T08:00'],
      ['CZ', '2026-05-04T11:00'],
      ['CZ', back],
    ]);
  // Home 2 h + 2 h 59 = 4 h 59: no domestic stravné, so 3 h abroad earn a third of 50 EUR.
  t.strictSame(trip('2026-05-04T13:59').totals.byCurrency, { EUR: '16.67' });
  // Home 5 h: domestic stravné arises, the third needs more than 5 h abroad; all 8 h are domestic.
  t.strictSame(trip('2026-05-04T14:00').totals.byCurrency, { CZK: '155.00' });
});

t.test('HR short stays: a stay passing 12 h takes its own rate (BA 50) instead of the long stay’s (AT 90)', async (t) => {
  const trip = (back: string) =>
    calc('HR', [
      ['HR', '2026-05-04T06:00'],
      ['AT', '2026-05-04T06:00'],
      ['BA', '2026-05-04T16:00'],
      ['HR', back],
    ]);
  // AT 10 h, BA 12 h: no stay over 12 h -> the first country's rate for the 22 h: 90.
  t.equal(trip('2026-05-05T04:00').totals.inBaseCurrency, '90.00');
  // BA 12 h 01: BA is a long stay, AT counts with it: 50.
  t.equal(trip('2026-05-05T04:01').totals.inBaseCurrency, '50.00');
});

t.test('SK §13(5): more hours in a cheaper country make it the day’s rate (AT 45 -> HU 39)', async (t) => {
  const trip = (back: string) =>
    calc('SK', [
      ['SK', '2026-05-04T06:00'],
      ['AT', '2026-05-04T06:00'],
      ['HU', '2026-05-04T11:00'],
      ['SK', back],
    ]);
  t.equal(trip('2026-05-04T15:00').totals.inBaseCurrency, '22.50'); // 9 h abroad, AT 5 h most: 50 % of 45
  t.equal(trip('2026-05-04T17:00').totals.inBaseCurrency, '19.50'); // 11 h abroad, HU 6 h most: 50 % of 39
});

t.test(
  'SI cap: a later return can swap a partial abroad for a whole domestic day (99.06 -> 96.87; found by a law review, session 24)',
  async (t) => {
    const trip = (back: string) =>
      calc('SI', [
        ['SI', '2026-03-10T09:00'],
        ['DE', '2026-03-10T21:26'],
        ['HU', '2026-03-11T08:54'],
        ['SI', '2026-03-11T18:00'],
        ['SI', back],
      ]);
    const before = trip('2026-03-12T23:21');
    const after = trip('2026-03-13T09:21');
    t.equal(before.totals.inBaseCurrency, '99.06');
    t.equal(after.totals.inBaseCurrency, '96.87', 'ten hours later pays less: the cap drops partials first');
  },
);
