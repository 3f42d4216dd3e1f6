// jsonPageBytes writes a page's items one by one: its bytes must be exactly the UTF-8 of one
// JSON.stringify of the whole page, for any items (unicode, escapes, nesting) and any other fields.
import fc from 'fast-check';
import t from 'tap';
import { jsonPageBytes } from '../../src/http/json-page-bytes.js';

const expected = (items: unknown[], rest: Record<string, unknown>): Buffer => Buffer.from(JSON.stringify({ items, ...rest }), 'utf8');

t.test('byte for byte one JSON.stringify of the page, over arbitrary items and fields', async (t) => {
  const rest = fc.dictionary(
    // Integer-like names would come first in one object literal (JavaScript's order), not after the
    // items: pages have none, and the function's comment says so.
    fc.string().filter((k) => k !== 'items' && k !== '__proto__' && !/^(0|[1-9]\d*)$/.test(k)),
    fc.jsonValue({ stringUnit: 'grapheme' }),
  );
  fc.assert(
    fc.property(fc.array(fc.jsonValue({ stringUnit: 'grapheme' }), { maxLength: 20 }), rest, (items, fields) =>
      jsonPageBytes(items, fields).equals(expected(items, fields)),
    ),
    { numRuns: 1_000 },
  );
  t.pass('1000 pages');
});

t.test('edges: no items, no other fields, non-ASCII and escapes in items', async (t) => {
  t.equal(jsonPageBytes([], {}).toString(), '{"items":[]}');
  t.equal(jsonPageBytes([], { total: 0, nextCursor: null }).toString(), '{"items":[],"total":0,"nextCursor":null}');
  const items = [{ city: 'Čakovec €', note: 'a"b\\c\n' }, { emoji: '\u{1f600}' }];
  t.ok(jsonPageBytes(items, { page: 1 }).equals(expected(items, { page: 1 })));
  t.same(JSON.parse(jsonPageBytes(items, { page: 1 }).toString('utf8')), { items, page: 1 });
});
