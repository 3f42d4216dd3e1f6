// Wire shapes of the per-diem calculator and the from-itinerary operation: the itinerary in, the
// computed rows out (money, hours and units as JSON numbers). The engine checks the meaning (order
// of times, countries, zones, meal keys) and names each bad field; these schemas check the types.
import { Type, type Static } from '@sinclair/typebox';
import { ref } from '../../schemas/ref.js';
import { Money } from '../../schemas/money.js';
import { StringEnum } from '../../schemas/common.js';
import { MAX_STOPS, PER_DIEM_LAWS } from '../../../domain/per-diems/index.js';

const Opt = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));
const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Number | typeof Type.Integer>>(s: T) =>
  Type.Union([s, Type.Null()]);
const Count = Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1000 }), Type.Null()]));
const WallClock = (description: string) => Type.String({ maxLength: 40, description });

export const ItineraryStop = Type.Object(
  {
    countryCode: Type.String({
      maxLength: 8,
      description: 'ISO 3166-1 alpha-2 (XK for Kosovo): from this stop on the traveller is in this country.',
    }),
    time: WallClock('Local wall-clock time in that country, yyyy-MM-ddTHH:mm[:ss], without an offset.'),
    placeId: Opt(Type.String({ maxLength: 300, description: "A maps provider's place id (echoed, not interpreted)." })),
    timeZone: Opt(Type.String({ maxLength: 64, description: 'IANA zone; required only where the country has several (US, ES, …).' })),
  },
  { additionalProperties: false, $id: 'ItineraryStop' },
);

export const PerDiemRowMeals = Type.Object(
  {
    countryCode: Type.String({ maxLength: 8 }),
    departureTime: WallClock("A computed row's departureTime: with countryCode, the key of the row."),
    breakfastsProvided: Count,
    lunchesProvided: Count,
    dinnersProvided: Count,
  },
  { additionalProperties: false, $id: 'PerDiemRowMeals', description: 'Meals provided on one computed row.' },
);

export const PerDiemItinerary = Type.Object(
  {
    stops: Type.Array(ref(ItineraryStop), {
      maxItems: MAX_STOPS,
      description: '2 to 200 stops in time order; leg i runs from stop i to stop i+1 in stop i’s country.',
    }),
    meals: Type.Optional(Type.Union([Type.Array(ref(PerDiemRowMeals), { maxItems: 5000 }), Type.Null()])),
    advancePaymentDate: Opt(
      Type.String({
        format: 'date',
        description: 'CZ: the exchange-rate date (default: the first day of the trip). Ignored by from-itinerary, which uses the entry’s.',
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: 'PerDiemItinerary',
    examples: [
      // HR: home, Austria over two nights, home.
      {
        stops: [
          { countryCode: 'HR', time: '2026-03-02T06:00' },
          { countryCode: 'AT', time: '2026-03-02T09:30' },
          { countryCode: 'HR', time: '2026-03-04T17:00' },
          { countryCode: 'HR', time: '2026-03-04T19:45' },
        ],
        meals: [{ countryCode: 'AT', departureTime: '2026-03-02T09:30', lunchesProvided: 1, dinnersProvided: 0, breakfastsProvided: 2 }],
      },
      // SI: Ljubljana to Zagreb and back within a day, lunch provided.
      {
        stops: [
          { countryCode: 'SI', time: '2026-04-14T07:00' },
          { countryCode: 'HR', time: '2026-04-14T08:15' },
          { countryCode: 'SI', time: '2026-04-14T18:30' },
          { countryCode: 'SI', time: '2026-04-14T19:45' },
        ],
        meals: [{ countryCode: 'HR', departureTime: '2026-04-14T08:15', lunchesProvided: 1 }],
      },
      // CZ: Prague to Munich for two days; the advance was paid the week before (CNB rate of that day).
      {
        stops: [
          { countryCode: 'CZ', time: '2026-05-18T05:30' },
          { countryCode: 'DE', time: '2026-05-18T08:40' },
          { countryCode: 'CZ', time: '2026-05-19T19:10' },
          { countryCode: 'CZ', time: '2026-05-19T22:00' },
        ],
        advancePaymentDate: '2026-05-11',
      },
      // SK: Bratislava to Vienna and Budapest, across midnight.
      {
        stops: [
          { countryCode: 'SK', time: '2026-06-08T06:00' },
          { countryCode: 'AT', time: '2026-06-08T07:00' },
          { countryCode: 'HU', time: '2026-06-08T20:00' },
          { countryCode: 'SK', time: '2026-06-09T15:00' },
          { countryCode: 'SK', time: '2026-06-09T16:30' },
        ],
      },
    ],
  },
);
export type PerDiemItineraryBody = Static<typeof PerDiemItinerary>;

export const PerDiemLaw = StringEnum(PER_DIEM_LAWS, { $id: 'PerDiemLaw', description: "The statute applied: the company's country." });

export const ComputedPerDiem = Type.Object(
  {
    countryCode: Type.String(),
    departureTime: Type.String({ description: "The caller's wall-clock time (the stop's, or a midnight within a leg for CZ and SK)." }),
    arrivalTime: Type.String(),
    departureTimeUtc: Type.String({ format: 'date-time' }),
    arrivalTimeUtc: Type.String({ format: 'date-time' }),
    hours: Type.Number({ description: 'Elapsed hours of the row (real time: a DST day has 23 or 25).' }),
    units: Type.Number({
      description: 'Per diems the row pays: 0.5, 1, 2.5; CZ thirds as 0.3333 and 0.6667; SI and CZ/SK domestic: number of per diems.',
    }),
    rate: Money,
    currencyCode: Type.String({ description: "The rate's currency (EUR, USD, CZK, GBP, …)." }),
    breakfastsProvided: Type.Integer(),
    lunchesProvided: Type.Integer(),
    dinnersProvided: Type.Integer(),
    mealsProvided: Type.Integer({ description: 'lunchesProvided + dinnersProvided.' }),
    mealReduction: Money,
    amount: Money,
    exchangeRate: Nullable(Type.Number()),
    exchangeRateDate: Nullable(Type.String({ format: 'date', description: 'Publication date of the applied list.' })),
    exchangeRateSource: Nullable(Type.String()),
    amountInBaseCurrency: Money,
    rule: Type.String({ description: 'The rule that decided the row, for the auditor (stable wording).' }),
  },
  { $id: 'ComputedPerDiem' },
);

export const PerDiemCalculation = Type.Object(
  {
    law: ref(PerDiemLaw),
    baseCurrency: Type.String(),
    perDiems: Type.Array(ref(ComputedPerDiem)),
    totals: Type.Object({
      byCurrency: Type.Record(Type.String(), Type.Number(), { description: 'Amounts per rate currency, e.g. { "EUR": 45.00 }.' }),
      inBaseCurrency: Money,
    }),
    rateTables: Type.Object({
      law: ref(PerDiemLaw),
      revision: Nullable(Type.Integer({ description: "Revision of the law's imported rate tables used; null: the shipped tables only." })),
    }),
    notices: Type.Array(
      Type.Object({
        code: Type.Union([Type.Literal('TRIP_OVER_30_DAYS')], {
          description: 'TRIP_OVER_30_DAYS: a Croatian trip longer than 30 days (the law knows at most 30 without a break).',
        }),
        detail: Type.String(),
      }),
      { description: 'Points a reviewer should look at; the rows are computed regardless. Usually empty.' },
    ),
  },
  { $id: 'PerDiemCalculation' },
);

const Band = Type.Object({
  overHours: Type.Number(),
  upToHours: Type.Union([Type.Number(), Type.Null()]),
  includesLowerEdge: Type.Boolean(),
  share: Type.Union([Type.String(), Type.Null()], {
    description: 'Share of the full amount or rate (decimal string); null where the band has its own amount.',
  }),
  domesticAmountIndex: Type.Union([Type.Integer(), Type.Null()], { description: 'Index into domestic.amounts.' }),
});
const MealReduction = Type.Object({
  appliesTo: Type.String(),
  breakfastPercent: Type.Number(),
  lunchPercent: Type.Number(),
  dinnerPercent: Type.Number(),
  note: Type.String(),
});

export const PerDiemRateTable = Type.Object(
  {
    law: ref(PerDiemLaw),
    date: Type.String({ format: 'date' }),
    domestic: Type.Union([
      Type.Object({
        validFrom: Type.String({ format: 'date' }),
        currency: Type.String(),
        amounts: Type.Array(Type.Number(), {
          description: 'HR: [half, full]; SI: [>6–8 h, >8–12 h, >12–24 h]; CZ and SK: [5–12 h, >12–18 h, >18 h].',
        }),
        source: Type.String(),
      }),
      Type.Null(),
    ]),
    counting: Type.String(),
    domesticBands: Type.Array(Band),
    foreignBands: Type.Array(Band),
    mealReductions: Type.Array(MealReduction),
    exchangeRateDate: Type.String({ description: 'Which exchange rate converts the rows.' }),
    foreign: Type.Object({
      validFrom: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
      validTo: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
      complete: Type.Boolean({ description: 'The whole official table: only then does the * row (countries not listed) apply.' }),
      rateTableRevision: Type.Union([Type.Integer(), Type.Null()]),
      rates: Type.Array(
        Type.Object({
          countryCode: Type.String({ description: 'ISO 3166-1 alpha-2, or * for countries not listed.' }),
          countryName: Type.String({ description: 'As the source writes it.' }),
          rate: Money,
          currency: Type.String(),
          source: Type.String(),
          origin: Type.String({ description: 'shipped, or import r<revision>.' }),
          validFrom: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
        }),
      ),
      available: Type.Optional(Type.Boolean({ description: 'With countryCode: whether the engine has a rate for it on the date.' })),
    }),
  },
  { $id: 'PerDiemRateTable' },
);

export const perDiemSchemas = [
  PerDiemRateTable,
  ItineraryStop,
  PerDiemRowMeals,
  PerDiemItinerary,
  PerDiemLaw,
  ComputedPerDiem,
  PerDiemCalculation,
];
