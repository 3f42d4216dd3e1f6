// Department parent cycles under concurrency, over real HTTP: crossing re-parentings sent at the same
// time (A under B with B under A; rings of three) never store a cycle. Each pair has exactly one
// winner, each ring exactly one loser, refused with 400 keyed parentId; the departments' own streams
// (the record) are checked after every round.
import t from 'tap';
import { departmentDecider, streamName } from '../../../../src/domain/departments/index.js';
import { loadStream } from '../../../../src/application/command-handler.js';
import { startTestApp } from '../../../helpers/app.js';

const ROUNDS = 6;
const PAIRS = 3;
const RINGS = 2;

t.test('concurrent crossing re-parentings never store a cycle', async (t) => {
  const app = await startTestApp(t);
  const tenant = await app.newTenant();
  const put = (id: string, name: string, parentId: string | null) =>
    app.request('PUT', `/api/v1/departments/${id}`, { key: tenant.key, body: { name, ...(parentId ? { parentId } : {}) } });
  const ids: string[] = [];
  for (let i = 0; i < PAIRS * 2 + RINGS * 3; i++) {
    const res = await app.request('POST', '/api/v1/departments', { key: tenant.key, body: { name: `D${i}` } });
    t.equal(res.status, 201, res.text);
    ids.push(res.body.id);
  }
  const name = (id: string) => `D${ids.indexOf(id)}`;

  /** The parents as the departments' own streams record them. */
  const recordedParents = async () => {
    const parents = new Map<string, string | null>();
    for (const id of ids) {
      const { state } = await loadStream(app.rt.store, streamName(id), departmentDecider, tenant.id);
      parents.set(id, state.kind === 'Existing' ? (state.department.parentId?.toLowerCase() ?? null) : null);
    }
    return parents;
  };
  const cycleIn = (parents: Map<string, string | null>): string[] | null => {
    for (const start of parents.keys()) {
      const path = [start];
      for (let p = parents.get(start) ?? null; p !== null; p = parents.get(p) ?? null) {
        if (p === start) return path;
        if (path.includes(p) || path.length > parents.size) break;
        path.push(p);
      }
    }
    return null;
  };

  let refusedAtAll = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const requests: { group: string; call: Promise<Awaited<ReturnType<typeof put>>> }[] = [];
    for (let p = 0; p < PAIRS; p++) {
      const [a, b] = [ids[2 * p]!, ids[2 * p + 1]!];
      requests.push({ group: `pair ${p}`, call: put(a, name(a), b) }, { group: `pair ${p}`, call: put(b, name(b), a) });
    }
    for (let r = 0; r < RINGS; r++) {
      const ring = ids.slice(PAIRS * 2 + 3 * r, PAIRS * 2 + 3 * r + 3);
      ring.forEach((id, i) => requests.push({ group: `ring ${r}`, call: put(id, name(id), ring[(i + 1) % 3]!) }));
    }
    const results = await Promise.all(requests.map(async (q) => ({ group: q.group, res: await q.call })));
    for (const { res } of results) {
      if (res.status === 400) {
        refusedAtAll++;
        t.same(Object.keys(res.body.errors ?? {}), ['parentId'], res.text);
      } else t.equal(res.status, 200, res.text);
    }
    const wins = (group: string) => results.filter((r) => r.group === group && r.res.status === 200).length;
    for (let p = 0; p < PAIRS; p++) t.equal(wins(`pair ${p}`), 1, `round ${round}, pair ${p}: one winner`);
    for (let r = 0; r < RINGS; r++) t.equal(wins(`ring ${r}`), 2, `round ${round}, ring ${r}: one loser`);

    t.same(cycleIn(await recordedParents()), null, `round ${round}: no cycle stored`);
    // Back to a flat list for the next round, one at a time.
    for (const id of ids) t.equal((await put(id, name(id), null)).status, 200);
  }
  t.equal(refusedAtAll, ROUNDS * (PAIRS + RINGS), 'every crossing edge was refused');
});
