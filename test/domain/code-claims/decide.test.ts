// The claim of one code: free, held by the claimant again, taken by another (409 CODE_TAKEN), released,
// and a stale claim (old, its holder no longer carries the code) taken over.
import t from 'tap';
import {
  CLAIM_GRACE_MS,
  codeClaimDecider,
  codeClaimStream,
  codeKey,
  type CodeClaimEvent,
  type ClaimCode,
} from '../../../src/domain/code-claims/index.js';
import { givenWhenThen, testContext, TEST_NOW } from '../../helpers/given-when-then.js';

const scenario = givenWhenThen(codeClaimDecider);
const claim = (holderId: string, currentHolderCarriesCode = true): ClaimCode => ({
  type: 'ClaimCode',
  data: { kind: 'costCenter', code: 'CC-1', holderId, field: 'code', currentHolderCarriesCode },
});
const claimedBy = (holderId: string, at = TEST_NOW): CodeClaimEvent => ({
  type: 'CodeClaimed',
  data: { kind: 'costCenter', code: 'CC-1', holderId, at },
});

t.test('codes compare trimmed and without case; registration numbers also without spaces and dashes', async (t) => {
  t.equal(codeKey('costCenter', ' cc-1 '), 'CC-1');
  t.equal(codeKey('vehicle', 'zg 123-ab'), 'ZG123AB');
  // What prints alike compares alike (found from outside, session 14): composed and decomposed
  // letters, and dashes other than the hyphen.
  t.equal(codeKey('vehicle', 'C\u030cK 100-A'), codeKey('vehicle', '\u010cK 100-A'));
  t.equal(codeKey('vehicle', '\u010cK 100-A'), '\u010cK100A');
  t.equal(codeKey('vehicle', 'ZG\u20131234\u2014AB'), 'ZG1234AB', 'en and em dashes');
  t.equal(codeKey('vehicle', 'ZG\u00a01234\u2212AB'), 'ZG1234AB', 'a no-break space and a minus sign');
  t.equal(codeKey('costCenter', 'S\u030cib'), codeKey('costCenter', '\u0160IB'));
  t.ok(codeKey('department', '\ufdfa'.repeat(40)).length <= 40, 'no compatibility expansion (a stream id must stay small)');
  t.not(codeKey('costCenter', 'CC-1'), codeKey('costCenter', 'CC1'), 'a cost-center code keeps its dashes');
  t.equal(codeClaimStream('t1', 'vehicle', 'ZG-123 AB'), codeClaimStream('t1', 'vehicle', 'zg123ab'));
  t.not(codeClaimStream('t1', 'vehicle', 'ZG123AB'), codeClaimStream('t2', 'vehicle', 'ZG123AB'), 'per tenant');
});

t.test('a free code is claimed; the holder may claim it again; another is refused', async (t) => {
  scenario(t)
    .given([])
    .when(claim('a'))
    .then([claimedBy('a')]);
  scenario(t)
    .given([claimedBy('a')])
    .when(claim('a'))
    .then([claimedBy('a')]);
  const err = scenario(t)
    .given([claimedBy('a')])
    .when(claim('b'))
    .thenThrows('CODE_TAKEN');
  t.match(err.extra, { field: 'code', value: 'CC-1', heldBy: 'a' });
});

t.test('release frees the code, only by its holder', async (t) => {
  const release = (holderId: string) => ({ type: 'ReleaseCode' as const, data: { kind: 'costCenter' as const, code: 'CC-1', holderId } });
  scenario(t)
    .given([claimedBy('a')])
    .when(release('b'))
    .then([]);
  const released = scenario(t)
    .given([claimedBy('a')])
    .when(release('a'))
    .events();
  scenario(t)
    .given([claimedBy('a'), ...released])
    .when(claim('b'))
    .then([claimedBy('b')]);
});

t.test('a stale claim is taken over only after the grace period', async (t) => {
  const old = new Date(Date.parse(TEST_NOW) - CLAIM_GRACE_MS - 1).toISOString();
  scenario(t)
    .given([claimedBy('a', old)])
    .when(claim('b', false))
    .then([claimedBy('b')]);
  scenario(t)
    .given([claimedBy('a', old)])
    .when(claim('b', true))
    .thenThrows('CODE_TAKEN');
  scenario(t, testContext())
    .given([claimedBy('a')])
    .when(claim('b', false))
    .thenThrows('CODE_TAKEN');
});
