// An incremental sync of the organization resources by updatedSince sees archivals (outside try,
// session 23): the list left archived records out unless includeArchived=true, and these resources
// have no webhooks or feed events, so a mirror kept that way never learnt a record it held was
// archived. With updatedSince, includeArchived now defaults to true; false still leaves them out.
import t from 'tap';
import { startTestApp } from '../../helpers/app.js';

t.test('updatedSince lists archived records by default', async (t) => {
  const app = await startTestApp(t);
  const resources = [
    { path: '/api/v1/cost-centers', body: { code: 'SYNC-1', name: 'Synced' } },
    { path: '/api/v1/departments', body: { code: 'SYNC-D', name: 'Synced department' } },
    { path: '/api/v1/vehicles', body: { registrationNumber: 'ZG 777-SY', make: 'Škoda', model: null, ownership: 'Company' } },
  ];
  for (const r of resources) {
    const created = await app.request('POST', r.path, { body: r.body });
    t.equal(created.status, 201, created.text);
    const since = new Date().toISOString();
    const archived = await app.request('PUT', `${r.path}/${created.body.id}`, { body: { ...r.body, isArchived: true } });
    t.same([archived.status, archived.body.isArchived], [200, true], archived.text);
    const ids = async (query: string) =>
      ((await app.request('GET', `${r.path}?${query}`)).body.items as { id: string; isArchived: boolean }[]).map((i) => [
        i.id,
        i.isArchived,
      ]);
    const q = `updatedSince=${encodeURIComponent(since)}`;
    t.same(await ids(q), [[created.body.id, true]], `${r.path}: the sync sees the archival`);
    t.same(await ids(`${q}&includeArchived=false`), [], `${r.path}: unless told not to`);
    t.same(await ids(''), [], `${r.path}: a plain list still shows active records only`);
  }
});
