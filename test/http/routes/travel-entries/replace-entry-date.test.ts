// A full replacement that omits `entryDate` keeps the stored one (outside try, session 23): it was
// set to today, as on a create, so an edit of the purpose moved the advance's conversion date and
// its amount in the base currency (or failed with EXCHANGE_RATE_UNAVAILABLE keyed a field the client
// never sent). An entry date moved out of the entry number's year is refused, as an import is.
import t from 'tap';
import { importRatesFile } from '../../../../src/rates/import-command.js';
import { fixturePath, HNB_RANGE } from '../../../rates/fixture-files.js';
import { startTestApp } from '../../../helpers/app.js';

t.test('PUT without entryDate keeps it; a new year is refused', async (t) => {
  const app = await startTestApp(t, { country: 'HR' });
  await importRatesFile(app.rt.handle.db, 'HNB', fixturePath(HNB_RANGE)); // 2025-04-11 to 2025-04-17
  const employeeId = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ena', lastName: 'Datum' } })).body.id as string;
  const body = {
    employeeId,
    entryDate: '2025-04-14',
    departureDate: '2025-04-14',
    returnDate: '2025-04-14',
    travelType: 'Domestic',
    currencyCode: 'USD',
    advancePayment: 100,
    purpose: 'Trip',
  };
  const created = await app.request('POST', '/api/v1/travel-entries', { body });
  t.equal(created.status, 201, created.text);
  const id = created.body.id as string;
  const { entryDate: _omitted, ...withoutDate } = body;
  const put = (b: object) => app.request('PUT', `/api/v1/travel-entries/${id}`, { body: b });

  const edited = await put({ ...withoutDate, purpose: 'Trip (edited)' });
  t.equal(edited.status, 200, edited.text);
  t.match(
    edited.body,
    {
      entryNumber: created.body.entryNumber,
      entryDate: '2025-04-14',
      advancePaymentDate: '2025-04-14',
      advancePaymentInBaseCurrency: created.body.advancePaymentInBaseCurrency,
      purpose: 'Trip (edited)',
    },
    'the stored entry date, and the advance converted as before',
  );

  const sameYear = await put({ ...body, entryDate: '2025-04-15' });
  t.equal(sameYear.status, 200, sameYear.text);
  t.match(sameYear.body, { entryDate: '2025-04-15', advancePaymentDate: '2025-04-15' }, 'a new date within the year is taken');

  const otherYear = await put({ ...body, entryDate: '2026-01-05', advancePaymentDate: '2025-04-14' });
  t.equal(otherYear.status, 400, otherYear.text);
  t.same(Object.keys(otherYear.body.errors ?? {}), ['entryDate'], otherYear.text);
  t.match(otherYear.body.errors.entryDate[0], /2025/, 'names the number year');

  const read = await app.request('GET', `/api/v1/travel-entries/${id}`);
  t.equal(read.body.entryDate, '2025-04-15', 'the refused replacement changed nothing');
});
