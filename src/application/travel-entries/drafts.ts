// From request bodies to the core's drafts: money to decimal strings, plus the shell facts every
// row needs (exchange-rate conversions). Checks that need a lookup (the employee exists in this
// tenant) are collected as field errors next to the rate problems.
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
import { advanceConversion, expenseConversion, moneyText, perDiemConversion, RateErrors } from './conversions.js';

export type Body = Record<string, unknown>;

const money = <T extends Body>(row: T, keys: string[]): T => {
  const out: Body = { ...row };
  for (const k of keys) if (k in out) out[k] = moneyText(out[k]);
  return out as T;
};

export async function expenseDraft(db: Db, country: string, body: Body, field: string, errors: RateErrors): Promise<ExpenseDraft> {
  const fields = money(body, ['amount', 'manualExchangeRate']) as unknown as ExpenseFields;
  return { ...fields, ...(await expenseConversion(db, country, fields, field, errors)) };
}

export async function perDiemDraft(db: Db, country: string, body: Body, field: string, errors: RateErrors): Promise<PerDiemDraft> {
  const fields = money(body, ['amount', 'overrideAmount', 'manualExchangeRate']) as unknown as PerDiemFields;
  return { ...fields, ...(await perDiemConversion(db, country, fields, field, errors)) };
}

export const allocationFields = (body: Body): AllocationFields => money(body, ['share']) as unknown as AllocationFields;

export async function entryDraft(db: Db, country: string, body: Body, now: string, errors: RateErrors): Promise<TravelEntryDraft> {
  const fields = money(body, ['advancePayment', 'manualAdvanceExchangeRate']) as unknown as TravelEntryFields & Body;
  const expenses = (body.expenses as Body[] | undefined | null) ?? [];
  const perDiems = (body.perDiems as Body[] | undefined | null) ?? [];
  const allocations = (body.costCenterAllocations as Body[] | undefined | null) ?? [];
  return {
    ...fields,
    ...(await advanceConversion(db, country, fields, now, errors)),
    expenses: await Promise.all(expenses.map((e, i) => expenseDraft(db, country, e, `expenses[${i}]`, errors))),
    perDiems: await Promise.all(perDiems.map((p, i) => perDiemDraft(db, country, p, `perDiems[${i}]`, errors))),
    costCenterAllocations: allocations.map(allocationFields),
  };
}
