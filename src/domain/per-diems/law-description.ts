// Each law's bands and meal reductions as data, for the reference endpoint and the docs: the same
// edges and percentages the counting code (bands.ts) and the law files apply.
import type { PerDiemLaw } from './law.js';

export interface BandDescription {
  /** Hours of the remainder (HR, SI) or of the calendar day (CZ, SK). */
  readonly overHours: number;
  readonly upToHours: number | null;
  /** Whether the lower edge itself is in the band. */
  readonly includesLowerEdge: boolean;
  /** Share of the full amount or foreign rate (domestic SI, CZ, SK bands have amounts of their own). */
  readonly share: string | null;
  /** Index into the domestic amounts, where the band has its own amount. */
  readonly domesticAmountIndex: number | null;
}

export interface MealReductionDescription {
  readonly appliesTo: string;
  readonly breakfastPercent: number;
  readonly lunchPercent: number;
  readonly dinnerPercent: number;
  readonly note: string;
}

export interface LawDescription {
  readonly counting: string;
  readonly domesticBands: readonly BandDescription[];
  readonly foreignBands: readonly BandDescription[];
  readonly mealReductions: readonly MealReductionDescription[];
  readonly exchangeRateDate: string;
}

const band = (
  overHours: number,
  upToHours: number | null,
  includesLowerEdge: boolean,
  share: string | null,
  idx: number | null,
): BandDescription => ({
  overHours,
  upToHours,
  includesLowerEdge,
  share,
  domesticAmountIndex: idx,
});

export const LAW_DESCRIPTIONS: Readonly<Record<PerDiemLaw, LawDescription>> = {
  HR: {
    counting: '24-hour blocks over the whole trip; foreign per diems from the foreign hours only, domestic = whole-trip count less foreign',
    domesticBands: [band(8, 12, false, '0.5', 0), band(12, 24, true, '1', 1)],
    foreignBands: [band(8, 12, false, '0.5', null), band(12, 24, true, '1', null)],
    mealReductions: [
      {
        appliesTo: 'every per diem',
        breakfastPercent: 0,
        lunchPercent: 30,
        dinnerPercent: 30,
        note: 'of the per diem due (a half one too); breakfast in the lodging price is no cut',
      },
    ],
    exchangeRateDate: 'HNB rate of the day of the row’s departure',
  },
  SI: {
    counting: '24-hour blocks per country; the number of per diems is capped at the whole trip’s',
    domesticBands: [band(6, 8, false, null, 0), band(8, 12, false, null, 1), band(12, 24, false, '1', 2)],
    foreignBands: [band(6, 8, false, '0.25', null), band(8, 14, false, '0.75', null), band(14, 24, false, '1', null)],
    mealReductions: [
      {
        appliesTo: 'over 14 h (domestic over 12 h)',
        breakfastPercent: 10,
        lunchPercent: 35,
        dinnerPercent: 35,
        note: 'all three meals: 20 % is paid',
      },
      {
        appliesTo: 'over 8 h to 14 h (domestic to 12 h)',
        breakfastPercent: 15,
        lunchPercent: 40,
        dinnerPercent: 40,
        note: 'of the 75 % amount; two meals: 20 % is paid',
      },
      {
        appliesTo: 'over 6 h to 8 h',
        breakfastPercent: 80,
        lunchPercent: 80,
        dinnerPercent: 80,
        note: 'any meal: 20 % is paid (domestic: breakfast no cut)',
      },
    ],
    exchangeRateDate: 'ECB rate of the last day of the trip',
  },
  CZ: {
    counting: 'calendar days in Czech time; abroad the country with the most hours of the day (equal: the higher rate)',
    domesticBands: [band(5, 12, true, null, 0), band(12, 18, false, null, 1), band(18, null, false, null, 2)],
    foreignBands: [band(1, 12, true, '0.3333', null), band(12, 18, false, '0.6667', null), band(18, null, false, '1', null)],
    mealReductions: [
      {
        appliesTo: 'up to 12 h (domestic 5–12 h)',
        breakfastPercent: 70,
        lunchPercent: 70,
        dinnerPercent: 70,
        note: 'of the amount due, per free meal',
      },
      {
        appliesTo: 'over 12 h to 18 h',
        breakfastPercent: 35,
        lunchPercent: 35,
        dinnerPercent: 35,
        note: 'of the amount due, per free meal',
      },
      { appliesTo: 'over 18 h', breakfastPercent: 25, lunchPercent: 25, dinnerPercent: 25, note: 'of the amount due, per free meal' },
    ],
    exchangeRateDate: 'CNB rate of the advance payment date, else of the first day of the trip',
  },
  SK: {
    counting:
      'calendar days in Slovak time, never merged; abroad the country with the most hours of the day (equal: the more favourable rate)',
    domesticBands: [band(5, 12, true, null, 0), band(12, 18, false, null, 1), band(18, null, false, null, 2)],
    foreignBands: [band(0, 6, false, '0.25', null), band(6, 12, false, '0.5', null), band(12, null, false, '1', null)],
    mealReductions: [
      {
        appliesTo: 'domestic',
        breakfastPercent: 25,
        lunchPercent: 40,
        dinnerPercent: 35,
        note: 'of the over-18-hour amount; the day’s stravné is rounded up to the cent',
      },
      { appliesTo: 'abroad', breakfastPercent: 25, lunchPercent: 40, dinnerPercent: 35, note: 'of the base rate; rounded up to the cent' },
    ],
    exchangeRateDate: 'ECB rate of the first day of the month the trip started',
  },
};
