// An employee address's municipalityCode over real HTTP: stored and read back for HR and SI,
// refused (400 keyed `address.municipalityCode`) when unknown, of the other country, or on an
// address outside HR and SI; absent from the address when not given.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

const person = (address: Record<string, unknown> | null) => ({ firstName: 'Iva', lastName: 'Kovač', address });

t.test('employee address municipalityCode', async (t) => {
  const app = await startTestApp(t);

  t.test('a known code is stored and read back; none is absent', async (t) => {
    const hr = await app.request('POST', '/api/v1/employees', {
      body: person({ city: 'Čakovec', countryCode: 'HR', municipalityCode: '00604' }),
    });
    t.equal(hr.status, 201, hr.text);
    t.match(hr.body.address, { city: 'Čakovec', countryCode: 'HR', municipalityCode: '00604' });
    t.match((await app.request('GET', `/api/v1/employees/${hr.body.id}`)).body.address, { municipalityCode: '00604' });

    const si = await app.request('POST', '/api/v1/employees', {
      body: person({ city: 'Ljubljana', countryCode: 'SI', municipalityCode: '061' }),
    });
    t.equal(si.status, 201, si.text);
    t.equal(si.body.address.municipalityCode, '061');

    const none = await app.request('POST', '/api/v1/employees', { body: person({ city: 'Graz', countryCode: 'AT' }) });
    t.equal(none.status, 201, none.text);
    t.notOk('municipalityCode' in none.body.address);

    const cleared = await app.request('PUT', `/api/v1/employees/${hr.body.id}`, {
      body: person({ city: 'Čakovec', countryCode: 'HR' }),
      headers: { 'if-match': hr.headers.get('etag')! },
    });
    t.equal(cleared.status, 200, cleared.text);
    t.notOk('municipalityCode' in cleared.body.address, 'a full replacement without it clears it');
  });

  t.test('refusals are 400 keyed address.municipalityCode', async (t) => {
    for (const [name, address] of [
      ['unknown HR code', { countryCode: 'HR', municipalityCode: '99999' }],
      ['an SI code on an HR address', { countryCode: 'HR', municipalityCode: '061' }],
      ['an HR code on an SI address', { countryCode: 'SI', municipalityCode: '00604' }],
      ['an address in AT', { countryCode: 'AT', municipalityCode: '00604' }],
    ] as const) {
      const res = await app.request('POST', '/api/v1/employees', { body: person(address) });
      t.equal(res.status, 400, name);
      t.same(Object.keys(res.body.errors ?? {}), ['address.municipalityCode'], name);
    }
    const tooLong = await app.request('POST', '/api/v1/employees', { body: person({ countryCode: 'HR', municipalityCode: '006040' }) });
    t.equal(tooLong.status, 400);
    t.ok(tooLong.body.errors?.['address.municipalityCode'], 'the schema refusal is keyed the same way');
  });
});
