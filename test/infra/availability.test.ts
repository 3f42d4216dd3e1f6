// Which database errors are "the service is away, retry" (503 with Retry-After, backoff in the
// workers) and which are faults of the statement (500).
import t from 'tap';
import { isDatabaseUnavailable } from '../../src/infra/availability.js';

t.test('unavailable: lost connections, restarts, cancelled statements and exhausted resources', async (t) => {
  const fail = (code: string) => Object.assign(new Error(`error ${code}`), { code });
  for (const code of ['ECONNREFUSED', '08006', '57P01', '57014', '53300']) t.ok(isDatabaseUnavailable(fail(code)), code);
  // Class 53: a full disk (53100, seen from outside in session 26), out of memory, any insufficient resource.
  for (const code of ['53000', '53100', '53200', '53400']) t.ok(isDatabaseUnavailable(fail(code)), code);
  t.ok(isDatabaseUnavailable(new Error('wrapped', { cause: fail('53100') })), 'also as the cause');
  for (const code of ['23505', '22P02', '42P01', '40001']) t.notOk(isDatabaseUnavailable(fail(code)), `${code} is not`);
});
