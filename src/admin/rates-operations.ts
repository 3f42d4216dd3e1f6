// `rates import --provider HNB|ECB|CNB --file F`: the flags checked here, the import itself is
// the rates feature's plain function.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { validationError } from '../domain/errors.js';
import { importRatesText } from '../rates/import-command.js';
import { RatesFormatError } from '../rates/parse/format-error.js';
import { isProviderCode, PROVIDER_CODES } from '../rates/providers.js';
import type { Operation } from './operation.js';

export const ratesOperations: Record<string, Operation> = {
  'rates import': async ({ db }, args) => {
    const provider = typeof args.provider === 'string' ? args.provider.toUpperCase() : '';
    const errors: Record<string, string[]> = {};
    if (!isProviderCode(provider)) errors.provider = [`--provider must be one of ${PROVIDER_CODES.join(', ')}.`];
    if (typeof args.file !== 'string' || args.file === '') errors.file = ['--file is required.'];
    if (Object.keys(errors).length > 0) throw validationError(errors);
    // The admin API may run in another working directory: send it an absolute path.
    const file = resolve(String(args.file));
    // An operator's file that cannot be read or parsed is a 400 keyed `file`, as per-diem-rates
    // import answers, not an INTERNAL_ERROR (outside probe, session 21).
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw validationError({ file: [`Cannot read ${file}: ${String((err as NodeJS.ErrnoException).code ?? err)}.`] });
    }
    try {
      return await importRatesText(db, provider as 'HNB', text, file);
    } catch (err) {
      if (err instanceof RatesFormatError) throw validationError({ file: [err.message] });
      throw err;
    }
  },
};
