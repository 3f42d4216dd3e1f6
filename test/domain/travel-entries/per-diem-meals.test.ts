import t, { type Test } from 'tap';
import { legacyMealsToCounts } from '../../../src/domain/travel-entries/index.js';
import { createCommand, perDiem, scenario } from './fixtures.js';

const createdPerDiem = (t: Test, fields: Parameters<typeof perDiem>[0]) => {
  const [event] = scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem(fields)] }))
    .events();
  return event?.type === 'TravelEntryCreated' ? event.data.content.perDiems[0] : undefined;
};

t.test('legacy mealsProvided maps to lunches and dinners (lunch first), no breakfasts', async (t) => {
  t.strictSame(legacyMealsToCounts(0), { breakfastsProvided: 0, lunchesProvided: 0, dinnersProvided: 0 });
  t.strictSame(legacyMealsToCounts(1), { breakfastsProvided: 0, lunchesProvided: 1, dinnersProvided: 0 });
  t.strictSame(legacyMealsToCounts(2), { breakfastsProvided: 0, lunchesProvided: 1, dinnersProvided: 1 });
  t.strictSame(legacyMealsToCounts(3), { breakfastsProvided: 0, lunchesProvided: 2, dinnersProvided: 1 });
});

t.test('a per diem with only the legacy aggregate reads back the same aggregate', async (t) => {
  const row = createdPerDiem(t, {
    breakfastsProvided: undefined,
    lunchesProvided: undefined,
    dinnersProvided: undefined,
    mealsProvided: 3,
  });
  t.match(row, { breakfastsProvided: 0, lunchesProvided: 2, dinnersProvided: 1, mealsProvided: 3 });
});

t.test('per-meal counts are canonical and mealsProvided is derived as lunches + dinners', async (t) => {
  const row = createdPerDiem(t, { breakfastsProvided: 2, lunchesProvided: 1, dinnersProvided: 1 });
  t.match(row, { breakfastsProvided: 2, lunchesProvided: 1, dinnersProvided: 1, mealsProvided: 2 });
});

t.test('an echoed aggregate that agrees with the per-meal counts is accepted', async (t) => {
  const row = createdPerDiem(t, { breakfastsProvided: 1, lunchesProvided: 1, dinnersProvided: 1, mealsProvided: 2 });
  t.match(row, { mealsProvided: 2 });
});

t.test('an aggregate that contradicts the per-meal counts is rejected', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem({ lunchesProvided: 1, dinnersProvided: 0, mealsProvided: 2 })] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].mealsProvided']);
});

t.test('counts are whole numbers, 0 or more', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem({ lunchesProvided: -1, dinnersProvided: 1.5 })] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].lunchesProvided', 'perDiems[0].dinnersProvided']);
  scenario(t)
    .given([])
    .when(
      createCommand({ perDiems: [perDiem({ breakfastsProvided: null, lunchesProvided: null, dinnersProvided: null, mealsProvided: -2 })] }),
    )
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].mealsProvided']);
});

t.test('a per-day allocation must account for the per-meal counts', async (t) => {
  const ok = createdPerDiem(t, {
    breakfastsProvided: 1,
    lunchesProvided: 1,
    dinnersProvided: 0,
    mealsProvidedAllocation: [
      { date: '2026-03-02', lunchesProvided: 1 },
      { date: '2026-03-03', breakfastsProvided: 1 },
    ],
  });
  t.strictSame(ok?.mealsProvidedAllocation, [
    { date: '2026-03-02', breakfastsProvided: 0, lunchesProvided: 1, dinnersProvided: 0 },
    { date: '2026-03-03', breakfastsProvided: 1, lunchesProvided: 0, dinnersProvided: 0 },
  ]);
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem({ mealsProvidedAllocation: [{ date: '2026-03-02', lunchesProvided: 2 }] })] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].mealsProvidedAllocation']);
  scenario(t)
    .given([])
    .when(
      createCommand({
        perDiems: [
          perDiem({
            breakfastsProvided: 0,
            lunchesProvided: 2,
            mealsProvidedAllocation: [
              { date: '2026-03-02', lunchesProvided: 1 },
              { date: '2026-03-02', lunchesProvided: 1 },
            ],
          }),
        ],
      }),
    )
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].mealsProvidedAllocation[1].date']);
});

t.test('an override needs a reason, and a reason needs an override', async (t) => {
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem({ overrideAmount: '50.00' })] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].overrideReason']);
  scenario(t)
    .given([])
    .when(createCommand({ perDiems: [perDiem({ overrideReason: 'Because' })] }))
    .thenThrows('VALIDATION_FAILED', ['perDiems[0].overrideReason']);
  const row = createdPerDiem(t, { overrideAmount: '50.00', overrideReason: 'Shortened trip' });
  t.match(row, { overrideAmount: '50.00', overrideReason: 'Shortened trip' });
  // A refused amount with its reason: only the amount is named (the reason came with an amount).
  for (const overrideAmount of ['-5', '1.234'])
    scenario(t)
      .given([])
      .when(createCommand({ perDiems: [perDiem({ overrideAmount, overrideReason: 'Because' })] }))
      .thenThrows('VALIDATION_FAILED', ['perDiems[0].overrideAmount']);
});
