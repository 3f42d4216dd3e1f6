// Validators of the child rows (expense, per diem, cost-center allocation, attachment). The id
// is decided by the caller: a new row gets ctx.newId(), a kept row its stored id.
import type { FieldErrorCollector } from '../shared/field-errors.js';
import { instantMillis } from '../shared/dates.js';
import { compareDecimals, decimalProblem } from '../shared/decimal.js';
import type { AllocationFields, AttachmentFields, ExpenseDraft, MealAllocationDayFields, PerDiemDraft } from './commands.js';
import type { Attachment, CostCenterAllocation, Expense, MealAllocationDay, PerDiem } from './model.js';
import { derivedMealsProvided, resolveMealCounts, type MealCounts } from './per-diem-meals.js';
import { Fields } from './validate-common.js';

export function validateExpense(input: ExpenseDraft, id: string, errors: FieldErrorCollector, prefix: string): Expense {
  const f = new Fields(errors, prefix);
  const amount = f.money('amount', input.amount, { required: true, min: 'positive' });
  const exchangeRateSource = f.rateSource('exchangeRateSource', input.exchangeRateSource);
  return {
    id,
    date: f.date('date', input.date) ?? '',
    category: f.text('category', input.category, 100, true) ?? '',
    description: f.text('description', input.description, 1000),
    amount: amount ?? '0',
    currencyCode: f.currency('currencyCode', input.currencyCode) ?? '',
    manualExchangeRate: f.rate('manualExchangeRate', input.manualExchangeRate),
    exchangeRate: f.rate('exchangeRate', input.exchangeRate),
    exchangeRateSource,
    amountInBaseCurrency:
      f.baseAmount('amountInBaseCurrency', input.amountInBaseCurrency, {
        amountField: 'amount',
        amount,
        rateField: 'manualExchangeRate',
        source: exchangeRateSource,
      }) ?? '0',
  };
}

/** A per-day allocation of the provided meals must account for exactly the per-meal counts. */
function mealAllocation(days: MealAllocationDayFields[] | null | undefined, counts: MealCounts, f: Fields): MealAllocationDay[] | null {
  if (days === null || days === undefined) return null;
  const seen = new Set<string>();
  const result = days.map((day, i) => {
    const d = new Fields(f.errors, f.path(`mealsProvidedAllocation[${i}]`));
    const date = d.date('date', day.date) ?? '';
    if (date !== '' && seen.has(date)) d.errors.add(d.path('date'), 'Each date appears once.');
    seen.add(date);
    return {
      date,
      breakfastsProvided: d.count('breakfastsProvided', day.breakfastsProvided),
      lunchesProvided: d.count('lunchesProvided', day.lunchesProvided),
      dinnersProvided: d.count('dinnersProvided', day.dinnersProvided),
    };
  });
  const sum = (k: keyof MealCounts): number => result.reduce((acc, day) => acc + day[k], 0);
  if (
    sum('breakfastsProvided') !== counts.breakfastsProvided ||
    sum('lunchesProvided') !== counts.lunchesProvided ||
    sum('dinnersProvided') !== counts.dinnersProvided
  ) {
    f.errors.add(
      f.path('mealsProvidedAllocation'),
      'The per-day counts must add up to breakfastsProvided, lunchesProvided and dinnersProvided.',
    );
  }
  return result;
}

export function validatePerDiem(input: PerDiemDraft, id: string, errors: FieldErrorCollector, prefix: string): PerDiem {
  const f = new Fields(errors, prefix);
  const departureTime = f.instant('departureTime', input.departureTime);
  const arrivalTime = f.instant('arrivalTime', input.arrivalTime);
  if (departureTime !== null && arrivalTime !== null && instantMillis(arrivalTime) <= instantMillis(departureTime)) {
    errors.add(f.path('arrivalTime'), 'Must be after departureTime.');
  }
  const counts = resolveMealCounts(input, f);
  // `statutory` absent: a legacy import, stored as given. Null: the engine refused the row (the
  // facts say why), so only the shapes of what was sent are checked.
  const legacy = input.statutory === undefined;
  const statutory = input.statutory ?? null;
  const sentAmount = f.money('amount', input.amount, { required: legacy, min: 'zero' });
  const currencySent = input.currencyCode !== null && input.currencyCode !== undefined;
  const sentCurrency = legacy || currencySent ? f.currency('currencyCode', input.currencyCode) : null;
  const overrideAmount = f.money('overrideAmount', input.overrideAmount, { required: false, min: 'zero' });
  const overrideReason = f.text('overrideReason', input.overrideReason, 500);
  // An override of the statutory amount must say why (audit); a reason alone overrides nothing.
  if (overrideAmount !== null && overrideReason === null) errors.add(f.path('overrideReason'), 'Required with overrideAmount.');
  // An amount sent but refused has its own error; the reason is not blamed for it.
  const overrideSent = input.overrideAmount !== null && input.overrideAmount !== undefined;
  if (!overrideSent && overrideReason !== null) errors.add(f.path('overrideReason'), 'Only allowed with overrideAmount.');
  return {
    id,
    countryCode: f.country('countryCode', input.countryCode) ?? '',
    departureTime: departureTime ?? '',
    arrivalTime: arrivalTime ?? '',
    ...counts,
    mealsProvided: derivedMealsProvided(counts),
    mealsProvidedAllocation: mealAllocation(input.mealsProvidedAllocation, counts, f),
    // The engine's amount is paid (or the override); a sent amount is only checked for its shape.
    // Without statutory facts (a legacy import) the row is stored as given.
    amount: overrideAmount ?? statutory?.statutoryAmount ?? sentAmount ?? '0',
    currencyCode: statutory?.currencyCode ?? sentCurrency ?? '',
    overrideAmount,
    overrideReason,
    manualExchangeRate: f.rate('manualExchangeRate', input.manualExchangeRate),
    exchangeRateSource: f.rateSource('exchangeRateSource', input.exchangeRateSource),
    ...(statutory !== null && { statutory: withoutCurrency(statutory) }),
  };
}

export function validateAllocation(input: AllocationFields, id: string, errors: FieldErrorCollector, prefix: string): CostCenterAllocation {
  const f = new Fields(errors, prefix);
  let share = f.text('share', input.share, 40, true);
  // A share is a percentage: more than 0, at most 100, up to 4 decimals (33.3333).
  if (share !== null && !errors.check(f.path('share'), sharePercentProblem(share))) share = null;
  return { id, costCenterId: f.text('costCenterId', input.costCenterId, 100, true) ?? '', share: share ?? '0' };
}

function sharePercentProblem(share: string): string | null {
  return decimalProblem(share, { min: 'positive', maxScale: 4 }) ?? (compareDecimals(share, '100') > 0 ? 'Must not exceed 100.' : null);
}

export const MAX_ATTACHMENTS_PER_REQUEST = 5;

export function validateAttachment(input: AttachmentFields, uploadedAt: string, errors: FieldErrorCollector, prefix: string): Attachment {
  const f = new Fields(errors, prefix);
  const contentType = f.text('contentType', input.contentType, 100, true);
  if (contentType !== null && !/^[\w.+-]+\/[\w.+-]+$/.test(contentType))
    errors.add(f.path('contentType'), 'Must be a media type such as application/pdf.');
  if (!Number.isInteger(input.size) || input.size <= 0) errors.add(f.path('size'), 'Must be a positive whole number of bytes.');
  return {
    id: f.text('id', input.id, 100, true) ?? '',
    fileName: f.text('fileName', input.fileName, 255, true) ?? '',
    contentType: contentType ?? '',
    size: input.size,
    uploadedAt,
  };
}

function withoutCurrency<T extends { currencyCode: string }>(value: T): Omit<T, 'currencyCode'> {
  const { currencyCode: _currencyCode, ...rest } = value;
  return rest;
}
