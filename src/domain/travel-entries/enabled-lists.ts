// The company's enabled countries and currencies (tenant profile, `tenant set-enabled`) applied to
// an entry or to one child row: every country and currency the client names must be in the lists;
// null enables all. Pure: the shell passes the tenant's lists in. Checked fields, keyed as the API
// keys them: destinationCountryCode (when given; a code the decider derives from `destination` is
// not the client's), currencyCode, expenses[i].currencyCode, perDiems[i].countryCode and
// perDiems[i].currencyCode (when given: the statutory rate's currency is the law's choice, not the
// client's, and is not refused). A child row written on its own (POST/PUT of one expense or per
// diem) is keyed as its body names it: `countryCode`, `currencyCode`. Codes compare
// case-insensitively; the shape of a code is the decider's check, not this one's.

import { messagesAt } from '../shared/field-errors.js';
import type { TravelEntryDraft } from './commands.js';

export interface EnabledLists {
  countries: readonly string[] | null;
  currencies: readonly string[] | null;
}

/** The codes a child row names (an expense has no country). */
export interface ChildRowCodes {
  countryCode?: string | null;
  currencyCode?: string | null;
}

type Check = (path: string, code: string | null | undefined) => void;

/** The checks of one write, collecting into one error map. */
function checks(enabled: EnabledLists): { errors: Record<string, string[]>; country: Check; currency: Check } {
  const errors: Record<string, string[]> = {};
  const check = (list: readonly string[] | null, what: 'country' | 'currency'): Check => {
    const allowed = list === null ? null : new Set(list.map((c) => c.toUpperCase()));
    return (path, code) => {
      if (allowed === null || code === null || code === undefined || code.trim() === '') return;
      if (allowed.has(code.trim().toUpperCase())) return;
      messagesAt(errors, path).push(
        `The company has not enabled the ${what} ${code}; enabled: ${[...allowed].sort().join(', ') || 'none'}.`,
      );
    };
  };
  return { errors, country: check(enabled.countries, 'country'), currency: check(enabled.currencies, 'currency') };
}

/** One child row's codes, keyed `<prefix>countryCode` and `<prefix>currencyCode`. */
function checkRow(c: ReturnType<typeof checks>, prefix: string, row: ChildRowCodes): void {
  c.country(`${prefix}countryCode`, row.countryCode);
  c.currency(`${prefix}currencyCode`, row.currencyCode);
}

export function enabledListErrors(draft: TravelEntryDraft, enabled: EnabledLists): Record<string, string[]> {
  const c = checks(enabled);
  c.country('destinationCountryCode', draft.destinationCountryCode);
  c.currency('currencyCode', draft.currencyCode);
  (draft.expenses ?? []).forEach((e, i) => checkRow(c, `expenses[${i}].`, { currencyCode: e.currencyCode }));
  (draft.perDiems ?? []).forEach((p, i) => checkRow(c, `perDiems[${i}].`, p));
  return c.errors;
}

/** One expense or per diem added or changed on its own: keyed `countryCode`, `currencyCode`. */
export function childRowEnabledListErrors(row: ChildRowCodes, enabled: EnabledLists): Record<string, string[]> {
  const c = checks(enabled);
  checkRow(c, '', row);
  return c.errors;
}
