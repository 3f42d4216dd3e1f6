// Wire shapes of the per-diem calculator and the from-itinerary operation: the itinerary in, the
// computed rows out (money, hours and units as JSON numbers). The engine checks the meaning (order
// of times, countries, zones, meal keys) and names each bad field; these schemas check the types.
import { Type, type Static } from '@sinclair/typebox';
import { ref } from '../../schemas/ref.js';
import { Money } from '../../schemas/money.js';
import { StringEnum } from '../../schemas/common.js';
import { PER_DIEM_LAWS } from '../../../domain/per-diems/index.js';

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
      maxItems: 1000,
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
      {
        stops: [
          { countryCode: 'HR', time: '2026-03-02T06:00' },
          { countryCode: 'AT', time: '2026-03-02T09:30' },
          { countryCode: 'HR', time: '2026-03-04T17:00' },
          { countryCode: 'HR', time: '2026-03-04T19:45' },
        ],
        meals: [{ countryCode: 'AT', departureTime: '2026-03-02T09:30', lunchesProvided: 1, dinnersProvided: 0, breakfastsProvided: 2 }],
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
  },
  { $id: 'PerDiemCalculation' },
);

export const perDiemSchemas = [ItineraryStop, PerDiemRowMeals, PerDiemItinerary, PerDiemLaw, ComputedPerDiem, PerDiemCalculation];
