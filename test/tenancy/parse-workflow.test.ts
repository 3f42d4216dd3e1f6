// `tenant set-workflow` input: steps of approver UUIDs, stored lower-case (submission compares them
// with active employees' ids, which the database answers lower-case), duplicates collapsed.
import t from 'tap';
import { parseWorkflow } from '../../src/tenancy/tenants.js';
import { DomainError } from '../../src/domain/errors.js';

const id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';

t.test('approver ids are stored lower-case, once each', async (t) => {
  t.same(parseWorkflow([{ approverIds: [id.toUpperCase(), id] }, { approverIds: [id] }]), {
    steps: [{ approverIds: [id] }, { approverIds: [id] }],
  });
});

t.test('anything but steps of UUIDs is refused, keyed steps', async (t) => {
  for (const raw of [{}, [], [{ approverIds: ['x'] }], [{}]]) {
    t.throws(() => parseWorkflow(raw), DomainError, JSON.stringify(raw));
    try {
      parseWorkflow(raw);
    } catch (e) {
      t.same(Object.keys((e as DomainError).errors ?? {}), ['steps']);
    }
  }
});
