// An ERP mirroring departments, vehicles and cost centers by updatedSince sees deletions: with
// includeDeleted=true a deleted record is listed as a tombstone (isDeleted, editedAt the deletion
// time). Found from outside (session 14): a deleted record vanished from every list, so a mirror
// kept it for ever. Without the flag the lists are as before.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

t.test('deletions reach an incremental sync', async (t) => {
  const app = await startTestApp(t);
  const other = await app.newTenant();
  for (const { path, body } of [
    { path: '/api/v1/departments', body: { name: 'Gone dept', code: 'GONE-D' } },
    { path: '/api/v1/vehicles', body: { registrationNumber: 'GONE 1-A', ownership: 'Company' } },
    { path: '/api/v1/cost-centers', body: { code: 'GONE-C', name: 'Gone' } },
  ]) {
    t.test(path, async (t) => {
      const kept = await app.request('POST', path, {
        body: path.endsWith('vehicles') ? { ...body, registrationNumber: 'KEPT 1-A' } : { ...body, code: 'KEPT', name: 'Kept' },
      });
      const gone = await app.request('POST', path, { body });
      t.same([kept.status, gone.status], [201, 201], gone.text);
      const since = new Date().toISOString();
      t.equal((await app.request('DELETE', `${path}/${gone.body.id}`)).status, 204);

      const plain = await app.request('GET', `${path}?updatedSince=${encodeURIComponent(since)}`);
      t.same(plain.body.items, [], 'without includeDeleted: as before');
      const synced = await app.request('GET', `${path}?updatedSince=${encodeURIComponent(since)}&includeDeleted=true`);
      t.equal(synced.status, 200, synced.text);
      t.match(synced.body.items, [
        { id: gone.body.id, isDeleted: true, deletedAt: String, createdAt: gone.body.createdAt, editedAt: String },
      ]);
      t.same(Object.keys(synced.body.items[0]).sort(), ['createdAt', 'deletedAt', 'editedAt', 'id', 'isDeleted'], 'nothing else of it');
      const all = await app.request('GET', `${path}?includeDeleted=true&pageSize=100`);
      t.ok(
        all.body.items.some((i: any) => i.id === kept.body.id && i.isDeleted === undefined),
        'live records as before',
      );
      t.equal((await app.request('GET', `${path}/${gone.body.id}`)).status, 404, 'the record itself answers 404');
      const foreign = await app.request('GET', `${path}?includeDeleted=true`, { key: other.key });
      t.notOk(
        foreign.body.items.some((i: any) => i.id === gone.body.id),
        'another tenant never sees it',
      );
    });
  }
});
