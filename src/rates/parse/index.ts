// One entry point for every provider's published format.
import type { ProviderCode } from '../providers.js';
import type { ParsedRate } from '../types.js';
import { parseCnb } from './cnb.js';
import { parseEcb } from './ecb.js';
import { parseHnb } from './hnb.js';

export { RatesFormatError } from './format-error.js';

const PARSERS: Readonly<Record<ProviderCode, (text: string, origin?: string) => ParsedRate[]>> = {
  HNB: parseHnb,
  ECB: parseEcb,
  CNB: parseCnb,
};

/** Parses a provider file; throws RatesFormatError naming the line when it is malformed. */
export function parseRates(provider: ProviderCode, text: string, origin?: string): ParsedRate[] {
  return PARSERS[provider](text, origin);
}
