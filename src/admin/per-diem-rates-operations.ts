// `per-diem-rates import --law HR|SI|CZ|SK --valid-from yyyy-MM-dd --file F [--complete]`: the
// flags checked here; the import is the per-diems feature's plain function (the file is judged
// whole by the rate-table decider and recorded as one event, or refused with its line numbers).
import { resolve } from 'node:path';
import { importPerDiemRateFile } from '../application/per-diems/rate-import.js';
import { validationError } from '../domain/errors.js';
import { isPerDiemLaw, PER_DIEM_LAWS } from '../domain/per-diems/law.js';
import type { Operation } from './operation.js';

export const perDiemRatesOperations: Record<string, Operation> = {
  'per-diem-rates import': async (ctx, args) => {
    const law = typeof args.law === 'string' ? args.law.toUpperCase() : '';
    const validFrom = args['valid-from'];
    const errors: Record<string, string[]> = {};
    if (!isPerDiemLaw(law)) errors.law = [`--law must be one of ${PER_DIEM_LAWS.join(', ')}.`];
    if (typeof validFrom !== 'string' || validFrom === '')
      errors['valid-from'] = ['--valid-from is required (yyyy-MM-dd, the first day in force).'];
    if (typeof args.file !== 'string' || args.file === '') errors.file = ['--file is required.'];
    if (args.complete !== undefined && typeof args.complete !== 'boolean') errors.complete = ['--complete takes no value.'];
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const result = await importPerDiemRateFile(ctx.store, {
      law: law as 'HR',
      validFrom: validFrom as string,
      complete: args.complete === true,
      // The admin API may run in another working directory: send it an absolute path.
      file: resolve(String(args.file)),
    });
    // The server's tables read the import at once; another process's within their cache age (1 s).
    ctx.perDiemRateTables?.invalidate();
    return result;
  },
};
