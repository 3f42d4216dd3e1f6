// from-itinerary: the entry's per diems replaced at once by the engine's rows (one record, one
// entry.updated). The shell ran the engine over the stops; the core records the rows, with the
// itinerary they came from so an auditor can run it again. Overrides are not kept: a row of the
// new itinerary is a new row. Rows that equal the entry's per diems but for their ids change
// nothing, so nothing is recorded (a client that posts the same itinerary again).
import type { CommandContext } from '../decider.js';
import type { ReplacePerDiemsFromItinerary } from './commands.js';
import type { TravelEntryEvent } from './events.js';
import type { PerDiem } from './model.js';
import type { TravelEntry } from './state.js';
import { sameJson } from '../shared/text.js';

export function decidePerDiemsFromItinerary(c: ReplacePerDiemsFromItinerary, entry: TravelEntry, ctx: CommandContext): TravelEntryEvent[] {
  const { rows, itinerary, rateTableRevision } = c.data;
  const perDiems: PerDiem[] = rows.map((r) => ({
    id: ctx.newId(),
    countryCode: r.countryCode,
    departureTime: r.departureTime,
    arrivalTime: r.arrivalTime,
    breakfastsProvided: r.breakfastsProvided,
    lunchesProvided: r.lunchesProvided,
    dinnersProvided: r.dinnersProvided,
    mealsProvided: r.lunchesProvided + r.dinnersProvided,
    mealsProvidedAllocation: null,
    amount: r.statutoryAmount,
    currencyCode: r.currencyCode,
    overrideAmount: null,
    overrideReason: null,
    manualExchangeRate: null,
    exchangeRateSource: r.exchangeRateSource,
    statutory: {
      statutoryAmount: r.statutoryAmount,
      rate: r.rate,
      units: r.units,
      hours: r.hours,
      mealReduction: r.mealReduction,
      departureTimeLocal: r.departureTimeLocal,
      arrivalTimeLocal: r.arrivalTimeLocal,
      timeZone: r.timeZone ?? null,
      exchangeRate: r.exchangeRate,
      exchangeRateDate: r.exchangeRateDate,
      amountInBaseCurrency: r.amountInBaseCurrency,
      rule: r.rule,
      rateTableRevision,
    },
  }));
  const withoutId = ({ id: _id, ...row }: PerDiem) => row;
  if (sameJson(perDiems.map(withoutId), entry.perDiems.map(withoutId))) return [];
  return [{ type: 'TravelEntryPerDiemsReplaced', data: { entryId: entry.id, perDiems, itinerary, rateTableRevision, at: ctx.now } }];
}
