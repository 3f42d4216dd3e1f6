// From request bodies to the core's drafts: money to decimal strings, plus the shell facts every
// row needs (exchange-rate conversions). The input types are the domain's field types with money
// also accepted as a JSON number; the route schemas are checked against them at compile time
// (src/http/routes/travel-entries/schemas.ts), so one shape has one source of truth.
import type { Db } from '../../infra/database.js';
import type {
  AllocationFields,
  ExpenseDraft,
  ExpenseFields,
  PerDiemDraft,
  PerDiemFields,
  TravelEntryDraft,
  TravelEntryFields,
} from '../../domain/travel-entries/index.js';
import { advanceConversion, expenseConversion, moneyText, perDiemConversion, type RateErrors } from './conversions.js';
import { perDiemAdvanceDate } from '../../domain/travel-entries/index.js';
import { isPerDiemLaw } from '../../domain/per-diems/index.js';
import { isDate } from '../../domain/shared/dates.js';
import type { PerDiemCalculator } from '../per-diems/calculator.js';
import { statutoryPerDiem, type RowProblems } from '../per-diems/single-row.js';
import { keptInReplacement, keptStatutory, type StoredPerDiems } from '../per-diems/kept-statutory.js';

/** The entry's advance date for its per diems, when it is a real date (`perDiemAdvanceDate`). */
function advanceDateOf(fields: TravelEntryFields, now: string): string | null {
  const date = perDiemAdvanceDate(fields, now);
  return typeof date === 'string' && isDate(date) ? date : null;
}

/** A domain field type whose money fields also take a JSON number on the wire. */
export type WithMoneyInput<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | number };

const EXPENSE_MONEY = ['amount', 'manualExchangeRate'] as const;
const PER_DIEM_MONEY = ['amount', 'overrideAmount', 'manualExchangeRate'] as const;
const ALLOCATION_MONEY = ['share'] as const;
const ENTRY_MONEY = ['advancePayment', 'manualAdvanceExchangeRate'] as const;

export type ExpenseInput = WithMoneyInput<ExpenseFields, (typeof EXPENSE_MONEY)[number]>;
export type PerDiemInput = WithMoneyInput<PerDiemFields, (typeof PER_DIEM_MONEY)[number]>;
export type AllocationInput = WithMoneyInput<AllocationFields, (typeof ALLOCATION_MONEY)[number]>;
export type TravelEntryInput = WithMoneyInput<TravelEntryFields, (typeof ENTRY_MONEY)[number]> & {
  expenses?: ExpenseInput[] | null;
  perDiems?: PerDiemInput[] | null;
  costCenterAllocations?: AllocationInput[] | null;
};

/** The row with its money fields as decimal strings (present keys only: an absent field stays absent). */
function money<T, K extends keyof T>(row: WithMoneyInput<T, K>, keys: readonly K[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const k of keys) if (k in out) out[k as string] = moneyText(out[k as string]);
  return out as T;
}

export async function expenseDraft(db: Db, country: string, body: ExpenseInput, field: string, errors: RateErrors): Promise<ExpenseDraft> {
  const fields = money<ExpenseFields, (typeof EXPENSE_MONEY)[number]>(body, EXPENSE_MONEY);
  return { ...fields, ...(await expenseConversion(db, country, fields, field, errors)) };
}

/** How a write's per diems get their statutory figures: the engine, where refusals go, the rows it may keep. */
export interface StatutoryInputs {
  calc: PerDiemCalculator;
  problems: RowProblems;
  /** The entry's stored rows: one sent back unchanged keeps its figures (per-diems/kept-statutory.ts). */
  stored?: StoredPerDiems;
}

/**
 * A per diem with its statutory figures: computed by the engine as a one-leg itinerary (see
 * per-diems/single-row.ts), or kept from the stored row it sends back unchanged. Without
 * `statutory` (a legacy import) it is stored as given.
 */
export async function perDiemDraft(
  db: Db,
  country: string,
  body: PerDiemInput,
  field: string,
  errors: RateErrors,
  statutory?: StatutoryInputs & { advancePaymentDate: string | null; rowId?: string },
): Promise<PerDiemDraft> {
  const fields = money<PerDiemFields, (typeof PER_DIEM_MONEY)[number]>(body, PER_DIEM_MONEY);
  if (statutory === undefined || !isPerDiemLaw(country))
    return { ...fields, ...(await perDiemConversion(db, country, fields, field, errors)) };
  const kept = keptStatutory(country, fields, statutory.rowId ?? fields.id, statutory.stored, statutory.advancePaymentDate);
  if (kept !== undefined) return { ...fields, ...kept };
  return {
    ...fields,
    ...(await statutoryPerDiem(statutory.calc, country, fields, statutory.advancePaymentDate, field, statutory.problems)),
  };
}

export const allocationFields = (body: AllocationInput): AllocationFields =>
  money<AllocationFields, (typeof ALLOCATION_MONEY)[number]>(body, ALLOCATION_MONEY);

export async function entryDraft(
  db: Db,
  country: string,
  body: TravelEntryInput,
  now: string,
  errors: RateErrors,
  statutory?: StatutoryInputs,
): Promise<TravelEntryDraft> {
  const { expenses, perDiems, costCenterAllocations, ...entry } = body;
  const fields = money<TravelEntryFields, (typeof ENTRY_MONEY)[number]>(entry, ENTRY_MONEY);
  const rows = (perDiems ?? []).map((p) => money<PerDiemFields, (typeof PER_DIEM_MONEY)[number]>(p, PER_DIEM_MONEY));
  const advancePaymentDate = advanceDateOf(fields, now);
  // Stored figures are kept only when every stored per diem comes back unchanged (kept-statutory.ts).
  const perDiemStatutory = statutory && {
    ...statutory,
    advancePaymentDate,
    stored: isPerDiemLaw(country) ? keptInReplacement(country, rows, statutory.stored, advancePaymentDate) : undefined,
  };
  return {
    ...fields,
    ...(await advanceConversion(db, country, fields, now, errors)),
    expenses: await Promise.all((expenses ?? []).map((e, i) => expenseDraft(db, country, e, `expenses[${i}]`, errors))),
    perDiems: await Promise.all(rows.map((p, i) => perDiemDraft(db, country, p, `perDiems[${i}]`, errors, perDiemStatutory))),
    costCenterAllocations: (costCenterAllocations ?? []).map(allocationFields),
  };
}
