// The shapes that travel between the parsers, the table and the callers.
import type { RateDirection } from '../money/decimal.js';
import type { ProviderCode } from './providers.js';

/** One rate as a parser reads it from a provider file, before it knows the table. */
export interface ParsedRate {
  /** Publication (validity) date, yyyy-MM-dd. */
  readonly date: string;
  /** ISO 4217 alpha-3. */
  readonly currency: string;
  /** The published figure as a normalized decimal string (decimal point, no trailing zeros). */
  readonly rate: string;
  /** How many foreign units the figure is quoted for (CNB: 100 HUF); 1 for HNB and ECB. */
  readonly units: number;
}

/** A stored rate: the exchange-rate record of the spec. */
export interface ExchangeRate {
  readonly source: ProviderCode;
  readonly date: string;
  readonly currency: string;
  readonly rate: string;
  readonly units: number;
  readonly baseCurrency: string;
  readonly direction: RateDirection;
}

/** What a lookup answers: a stored rate, or the identity for the base currency (source null). */
export type FoundRate = Omit<ExchangeRate, 'source'> & { readonly source: ProviderCode | null };
