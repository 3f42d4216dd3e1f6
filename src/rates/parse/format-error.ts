// A provider file that does not have the provider's published shape. The message names the file
// and the line, so an operator running `rates import` can open the file at the right place.
import type { ProviderCode } from '../providers.js';

export class RatesFormatError extends Error {
  constructor(
    readonly provider: ProviderCode,
    /** File path or URL; absent for an in-memory text. */
    readonly origin: string | undefined,
    /** 1-based line of the offending text. */
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${provider} rates${origin === undefined ? '' : ` in ${origin}`}, line ${line}: ${detail}`);
    this.name = 'RatesFormatError';
  }
}
