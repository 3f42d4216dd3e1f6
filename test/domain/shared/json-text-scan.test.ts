// What the scan of JSON text finds before parsing: the container the check on the parsed value
// (findUnstorableValues) reports as nested too deeply, at the same path; and a name given twice in
// one object, which the parsed value no longer shows.
import t from 'tap';
import fc from 'fast-check';
import { scanJsonText } from '../../../src/domain/shared/json-text-scan.js';
import { findUnstorableValues } from '../../../src/domain/shared/storable-json.js';

const parsedFinding = (value: unknown, maxDepth: number) =>
  findUnstorableValues(value, maxDepth).find((u) => u.message.startsWith('Nested too deeply'))?.path;

t.test('too deep: the same first path as the check on the parsed value, for any JSON and limit', async (t) => {
  let disagreements = 0;
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 6 }), fc.boolean(), (value, maxDepth, spaced) => {
      const text = JSON.stringify(value, null, spaced ? 2 : undefined);
      const scan = scanJsonText(text, maxDepth);
      if (JSON.stringify(scan.tooDeep) !== JSON.stringify(parsedFinding(JSON.parse(text), maxDepth))) disagreements++;
      if (scan.repeatedName !== undefined) disagreements++; // JSON.stringify never repeats a name
    }),
    { numRuns: 2000 },
  );
  t.equal(disagreements, 0, '2,000 values, none apart');
});

t.test('brackets, commas and colons inside strings and names are text, not structure', async (t) => {
  const text = '{"a[{,:\\"": "]}[{,:\\\\", "b": [1, "[[[", {"c\\u005b": [[[]]]}]}';
  const value = JSON.parse(text) as unknown;
  for (const maxDepth of [1, 2, 3, 4, 5, 6])
    t.same(scanJsonText(text, maxDepth).tooDeep, parsedFinding(value, maxDepth), `limit ${maxDepth}`);
  t.same(scanJsonText(text, 3).tooDeep, ['b', 2, 'c[']);
});

t.test('a body of half a million brackets is refused at the first one too deep', async (t) => {
  const text = `{"name":${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
  t.same(scanJsonText(text).tooDeep, ['name', ...Array<number>(31).fill(0)]);
  t.equal(scanJsonText(`{"name":${'['.repeat(500_000)}`).tooDeep?.length, 32, 'cut off after it: still found, the parser never runs');
  t.same(scanJsonText('{"a":[[[1]]]}'), {}, 'shallow text passes');
});

t.test('a name given twice in one object, by the path of its second value', async (t) => {
  t.same(scanJsonText('{"amount":1,"amount":1000}'), { repeatedName: ['amount'] });
  t.same(scanJsonText('{"expenses":[{"amount":1},{"amount":2,"x":{"a":1},"amount":3}]}'), { repeatedName: ['expenses', 1, 'amount'] });
  t.same(scanJsonText('{"a":1,"\\u0061":2}'), { repeatedName: ['a'] }, 'the same name written with an escape');
  t.same(scanJsonText('{"a":{"b":1},"c":{"b":2},"b":3}'), {}, 'the same name in different objects is fine');
  t.same(scanJsonText('{"a":"a","b":"a:a"}'), {}, 'a value equal to a name, or holding a colon, is not a name');
  t.same(
    scanJsonText(`{"a":1,"a":2,"deep":${'['.repeat(40)}${']'.repeat(40)}}`).tooDeep?.[0],
    'deep',
    'depth is still found after a repeat',
  );
});

t.test('each name is decoded once, however many colons follow it (review, session 27)', async (t) => {
  // Colons after one long escaped name, in text the parser would refuse but the scan reads first:
  // the name was decoded again at every colon, about 2 s for 100 KB, and it runs on the shared thread.
  const name = `"${'\\n'.repeat(2_000)}"`;
  const text = `{${name}:${'{:}'.repeat(20_000)}`;
  const parse = JSON.parse;
  let decoded = 0;
  JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
    decoded++;
    return parse(...args);
  }) as typeof JSON.parse;
  try {
    scanJsonText(text);
  } finally {
    JSON.parse = parse;
  }
  t.equal(decoded, 1, 'the escaped name was decoded once');
});
