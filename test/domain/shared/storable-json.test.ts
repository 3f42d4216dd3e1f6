// What findUnstorableValues refuses (and what it must not): the one check the validation layer
// runs on every request part before the schema.
import t from 'tap';
import { findUnstorableValues, MAX_JSON_DEPTH, unstorableTextProblem } from '../../../src/domain/shared/storable-json.js';

t.test('text: NUL and unpaired surrogates are refused, everything else PostgreSQL stores is not', async (t) => {
  for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', '\ud83d'])
    t.ok(unstorableTextProblem(bad), JSON.stringify(bad));
  for (const ok of ['', 'Ana', 'Šibenik–Zagreb', '😀', 'a\u0001b', '\u202e', '<script>', '\ufffd'])
    t.equal(unstorableTextProblem(ok), null, JSON.stringify(ok));
});

t.test('values: paths to bad strings, property names (on their object), non-finite numbers', async (t) => {
  const found = findUnstorableValues({
    firstName: 'ok',
    lastName: 'a\u0000',
    expenses: [{ description: 'fine' }, { description: '\ud800', amount: Infinity }],
    customFields: { '\udc00': 1, good: 'x' },
    n: -Infinity,
    m: NaN,
    big: 1e308,
  });
  t.same(
    found.map((f) => f.path),
    [['lastName'], ['expenses', 1, 'description'], ['expenses', 1, 'amount'], ['customFields'], ['n'], ['m']],
  );
  t.match(found[3]!.message, /^Field names: must be valid Unicode/);
  t.same(findUnstorableValues({ a: [1, 'x', null, true, { b: '😀' }] }), [], 'a clean value has no findings');
});

t.test('nesting: reported at the limit, iteratively (a million levels do not overflow the stack)', async (t) => {
  let deep: unknown = 1;
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  const found = findUnstorableValues({ x: deep });
  t.equal(found.length, 1);
  t.equal(found[0]!.path.length, MAX_JSON_DEPTH);
  t.match(found[0]!.message, /Nested too deeply/);
  let ok: unknown = 'x';
  for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) ok = { a: ok };
  t.same(findUnstorableValues(ok), [], `${MAX_JSON_DEPTH - 1} levels of objects are fine`);
});
