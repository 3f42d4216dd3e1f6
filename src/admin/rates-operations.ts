// `rates import --provider HNB|ECB|CNB --file F`: the flags checked here, the import itself is
// the rates feature's plain function.
import { resolve } from 'node:path';
import { validationError } from '../domain/errors.js';
import { importRatesFile } from '../rates/import-command.js';
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
    return importRatesFile(db, provider as 'HNB', resolve(String(args.file)));
  },
};
