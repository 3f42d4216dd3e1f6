// Domestic per-diem amounts of each law, with the date each came into force and its source
// (../shared/research/perdiem-verified.md). Bands are written as the statute writes them; the
// counting code (bands.ts) decides the edges. A date before the earliest entry has no amounts:
// the engine refuses it rather than guess (PER_DIEM_RATE_UNAVAILABLE).
import type { PerDiemLaw } from './law.js';

export interface DomesticAmounts {
  readonly law: PerDiemLaw;
  readonly validFrom: string;
  readonly currency: string;
  /**
   * HR: [half (>8 h and <12 h), full (12 h or more)]. SI: [>6–8 h, >8–12 h, >12–24 h].
   * CZ and SK: [5–12 h, >12–18 h, >18 h].
   */
  readonly amounts: readonly [string, string] | readonly [string, string, string];
  readonly source: string;
}

const entry = (law: PerDiemLaw, validFrom: string, amounts: DomesticAmounts['amounts'], source: string): DomesticAmounts => ({
  law,
  validFrom,
  currency: law === 'CZ' ? 'CZK' : 'EUR',
  amounts,
  source,
});

// [M] rows rest on one secondary source (../shared/research/perdiem.md); the rest are [H].
export const DOMESTIC_AMOUNTS: readonly DomesticAmounts[] = [
  entry(
    'HR',
    '2024-01-02',
    ['15.00', '30.00'],
    'Pravilnik o porezu na dohodak čl. 7 as amended by NN 143/2023 (unchanged in 2025 and 2026)',
  ),
  // [M] The amounts before UL RS 162/2022; the date they came into force is not verified (kept for older trips).
  entry('SI', '2007-01-01', ['7.45', '10.68', '21.39'], 'Uredba o davčni obravnavi povračil stroškov … before UL RS 162/2022'),
  // 9.69 for >6–8 h is flagged in the research (one source prints 7.45); see docs/per-diems.md.
  entry('SI', '2023-01-01', ['9.69', '13.88', '27.81'], 'Uredba o davčni obravnavi povračil stroškov … as amended by UL RS 162/2022'),
  entry('CZ', '2024-01-01', ['140', '212', '333'], 'Zákoník práce §163; vyhláška 398/2023 Sb. [M]'),
  entry('CZ', '2025-01-01', ['148', '225', '353'], 'Zákoník práce §163; vyhláška 475/2024 Sb. [M]'),
  entry('CZ', '2026-01-01', ['155', '236', '370'], 'Zákoník práce §163; vyhláška 573/2025 Sb.'),
  entry('SK', '2023-10-01', ['7.80', '11.60', '17.40'], 'zákon 283/2002 Z. z. §5; opatrenie MPSVR from 1 Oct 2023 [M]'),
  entry('SK', '2024-09-01', ['8.30', '12.30', '18.40'], 'zákon 283/2002 Z. z. §5; opatrenie MPSVR from 1 Sep 2024 [M]'),
  entry('SK', '2025-04-01', ['8.80', '13.10', '19.50'], 'zákon 283/2002 Z. z. §5; opatrenie MPSVR from 1 Apr 2025'),
  entry('SK', '2025-12-01', ['9.30', '13.80', '20.60'], 'zákon 283/2002 Z. z. §5; opatrenie MPSVR from 1 Dec 2025'),
];

// Answers by law and date: the engine asks for the same few dates on every leg (a pure memo of
// constant data, bounded).
const answers = new Map<string, DomesticAmounts | null>();

/** The amounts in force on a date, or null before the law's first known amounts. */
export function domesticAmountsOn(law: PerDiemLaw, date: string): DomesticAmounts | null {
  const key = `${law}${date}`;
  let found = answers.get(key);
  if (found === undefined) {
    found = null;
    for (const a of DOMESTIC_AMOUNTS)
      if (a.law === law && a.validFrom <= date && (found === null || a.validFrom > found.validFrom)) found = a;
    if (answers.size >= 10_000) answers.clear();
    answers.set(key, found);
  }
  return found;
}
