// The company's enabled countries and currencies (tenant profile, `tenant set-enabled`) applied to
// an entry: every country and currency the client names must be in the lists; null enables all.
// Pure: the shell passes the tenant's lists in. Checked fields, keyed as the API keys them:
// destinationCountryCode (when given; a code the decider derives from `destination` is not the
// client's), currencyCode, expenses[i].currencyCode, perDiems[i].countryCode and
// perDiems[i].currencyCode (when given: the statutory rate's currency is the law's choice, not the
// client's, and is not refused). Codes compare case-insensitively; the shape of a code is the
// decider's check, not this one's.

import type { TravelEntryDraft } from './commands.js';

export interface EnabledLists {
  countries: readonly string[] | null;
  currencies: readonly string[] | null;
}

export function enabledListErrors(draft: TravelEntryDraft, enabled: EnabledLists): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const check = (list: readonly string[] | null, what: 'country' | 'currency') => {
    const allowed = list === null ? null : new Set(list.map((c) => c.toUpperCase()));
    return (path: string, code: string | null | undefined): void => {
      if (allowed === null || code === null || code === undefined || code.trim() === '') return;
      if (allowed.has(code.trim().toUpperCase())) return;
      (errors[path] ??= []).push(`The company has not enabled the ${what} ${code}; enabled: ${[...allowed].sort().join(', ') || 'none'}.`);
    };
  };
  const country = check(enabled.countries, 'country');
  const currency = check(enabled.currencies, 'currency');

  country('destinationCountryCode', draft.destinationCountryCode);
  currency('currencyCode', draft.currencyCode);
  (draft.expenses ?? []).forEach((e, i) => currency(`expenses[${i}].currencyCode`, e.currencyCode));
  (draft.perDiems ?? []).forEach((p, i) => {
    country(`perDiems[${i}].countryCode`, p.countryCode);
    currency(`perDiems[${i}].currencyCode`, p.currencyCode);
  });
  return errors;
}
