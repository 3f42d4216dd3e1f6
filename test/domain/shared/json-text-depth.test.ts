// The depth scan of JSON text finds, before parsing, the container the check on the parsed value
// (findUnstorableValues) reports as nested too deeply, at the same path.
import t from 'tap';
import fc from 'fast-check';
import { firstTooDeepPath } from '../../../src/domain/shared/json-text-depth.js';
import { findUnstorableValues } from '../../../src/domain/shared/storable-json.js';

const parsedFinding = (value: unknown, maxDepth: number) =>
  findUnstorableValues(value, maxDepth).find((u) => u.message.startsWith('Nested too deeply'))?.path;

t.test('the same first path as the check on the parsed value, for any JSON and limit', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 6 }), fc.boolean(), (value, maxDepth, spaced) => {
      const text = JSON.stringify(value, null, spaced ? 2 : undefined);
      t.same(firstTooDeepPath(text, maxDepth), parsedFinding(JSON.parse(text), maxDepth));
    }),
    { numRuns: 2000 },
  );
  t.pass('2,000 values');
});

t.test('brackets, commas and colons inside strings and keys are text, not structure', async (t) => {
  const text = '{"a[{,:\\"": "]}[{,:\\\\", "b": [1, "[[[", {"c\\u005b": [[[]]]}]}';
  const value = JSON.parse(text) as unknown;
  for (const maxDepth of [1, 2, 3, 4, 5, 6]) t.same(firstTooDeepPath(text, maxDepth), parsedFinding(value, maxDepth), `limit ${maxDepth}`);
  t.same(firstTooDeepPath(text, 3), ['b', 2, 'c[']);
});

t.test('a body of half a million brackets is refused at the first one too deep', async (t) => {
  const text = `{"name":${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
  t.same(firstTooDeepPath(text, 32), ['name', ...Array<number>(31).fill(0)]);
  t.same(firstTooDeepPath(`{"name":${'['.repeat(500_000)}`, 32)?.length, 32, 'cut off after it: still found, the parser never runs');
  t.equal(firstTooDeepPath('{"a":[[[1]]]}', 32), undefined, 'shallow text passes');
});
