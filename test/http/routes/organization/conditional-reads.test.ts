// Conditional GETs of one employee, department, cost center or vehicle (src/http/conditional-read.ts):
// If-None-Match naming the current ETag is a 304 with the ETag and no body (weak comparison, `*`,
// lists of tags); after a write, or with another tag, the whole record again. A 304 sends no personal
// data, so it is not in the access log. Entries answer 200 always: their body names cost centers'
// current codes, which change without the entry's revision.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';
import { domesticTrip } from '../../../helpers/domestic-trip.js';

t.test('conditional reads', async (t) => {
  const app = await startTestApp(t);
  const read = (path: string, ifNoneMatch?: string, key?: string) =>
    app.request('GET', path, {
      ...(ifNoneMatch === undefined ? {} : { headers: { 'if-none-match': ifNoneMatch } }),
      ...(key ? { key } : {}),
    });

  const employee = await app.request('POST', '/api/v1/employees', { body: { firstName: 'Ivo', lastName: 'Ivić', taxId: '12345678903' } });
  const resources = {
    employee: [`/api/v1/employees/${employee.body.id}`, { firstName: 'Ivo', lastName: 'Ivić', taxId: '12345678903', position: 'Driver' }],
    department: [
      `/api/v1/departments/${(await app.request('POST', '/api/v1/departments', { body: { name: 'Sales' } })).body.id}`,
      { name: 'Sales 2' },
    ],
    costCenter: [
      `/api/v1/cost-centers/${(await app.request('POST', '/api/v1/cost-centers', { body: { code: 'CC-1', name: 'One' } })).body.id}`,
      { code: 'CC-1', name: 'One, renamed' },
    ],
    vehicle: [
      `/api/v1/vehicles/${(await app.request('POST', '/api/v1/vehicles', { body: { registrationNumber: 'ZG-1-A', ownership: 'Company' } })).body.id}`,
      { registrationNumber: 'ZG-1-A', ownership: 'Company', make: 'Škoda' },
    ],
  } as const;

  for (const [name, [path, change]] of Object.entries(resources)) {
    t.test(name, async (t) => {
      const first = await read(path);
      t.equal(first.status, 200, first.text);
      const etag = first.headers.get('etag')!;
      t.match(etag, /^"\d+"$/);

      for (const tag of [etag, `W/${etag}`, '*', `"999", ${etag}`]) {
        const again = await read(path, tag);
        t.same([again.status, again.text, again.headers.get('etag')], [304, '', etag], `If-None-Match: ${tag}`);
      }
      const other = await read(path, '"999"');
      t.same([other.status, other.body], [200, first.body], 'another tag: the whole record');

      const put = await app.request('PUT', path, { body: change, headers: { 'if-match': etag } });
      t.equal(put.status, 200, put.text);
      const after = await read(path, etag);
      t.equal(after.status, 200, 'the old tag after a write: the new record');
      t.not(after.headers.get('etag'), etag);
      t.equal((await read(path, after.headers.get('etag')!)).status, 304);

      const stranger = await app.newTenant();
      t.equal((await read(path, '*', stranger.key)).status, 404, "another tenant's `*` still finds nothing");
    });
  }

  t.test('an employee as of a revision answers 304 to its own ETag', async (t) => {
    const path = `/api/v1/employees/${employee.body.id}?revision=0`;
    const first = await read(path);
    t.same([first.status, first.headers.get('etag')], [200, '"0"'], first.text);
    t.equal((await read(path, '"0"')).status, 304);
  });

  t.test('a 304 is not in the access log; a 200 is', async (t) => {
    const path = resources.employee[0];
    const count = async () =>
      Number(
        (
          await app.rt.handle.db
            .selectFrom('access_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('resource_id', '=', employee.body.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const etag = (await read(path)).headers.get('etag')!;
    t.equal(await count(), before + 1);
    t.equal((await read(path, etag)).status, 304);
    t.equal(await count(), before + 1);
  });

  t.test('a travel entry answers 200 whatever If-None-Match names', async (t) => {
    const entry = await app.request('POST', '/api/v1/travel-entries', { body: domesticTrip(employee.body.id) });
    t.equal(entry.status, 201, entry.text);
    const path = `/api/v1/travel-entries/${entry.body.id}`;
    const again = await read(path, entry.headers.get('etag')!);
    t.equal(again.status, 200);
  });
});
