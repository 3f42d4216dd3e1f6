// jsonRowsText (projections/json-rows.ts) sends JSON texts verbatim inside one `json` parameter, on
// the word of PostgreSQL's json_to_recordset that a text column gets an object's or array's own
// text. Held here against the real database (server or PGlite): the texts come back byte for byte,
// whitespace, escapes and all, and texts that are not an object or array come back as sent too.
import t from 'tap';
import { sql } from 'kysely';
import { jsonRowsText } from '../../projections/json-rows.js';
import { openTestDatabase } from '../helpers/db.js';

t.test('texts sent verbatim come back byte for byte', async (t) => {
  const handle = await openTestDatabase(t);
  const texts = [
    '{"id":"evt_1","data":{"purpose":"Zagreb – Ljubljana \\"HQ\\"","n":1.50}}',
    '{ "spaced" :  [1, 2.50, {"k":null}] }',
    '["a","\\u00e9\\n\\t\\\\",{"é":"ü"}]',
    '{"emoji":"😀","escaped":"\\ud83d\\ude00"}',
    // Sent escaped, not verbatim (json-rows.ts): PostgreSQL refuses these inside a json parameter.
    '{"nul":"a\\u0000b"}',
    '["\\udc00"]',
    'plain text, not JSON',
    '"a JSON string"',
    'null',
  ];
  const rows = texts.map((text, i) => ({ n: i, text, extra: i % 2 === 0 ? null : `x"${i}` }));
  const r = await sql<{ n: number; text: string; extra: string | null }>`
    select n, text, extra from json_to_recordset(${jsonRowsText(rows, ['text'])}::json) as x(n int, text text, extra text)
    order by n`.execute(handle.db);
  t.same(
    r.rows.map((x) => x.text),
    texts,
    'each text as sent',
  );
  t.same(
    r.rows.map((x) => x.extra),
    rows.map((x) => x.extra),
    'the other columns as plain JSON values',
  );
});

t.test('a container text goes in unescaped; any other value as a JSON value', async (t) => {
  t.equal(jsonRowsText([{ a: '{"x":"é"}', b: '{"y":1}' }], ['a']), '[{"a":{"x":"é"},"b":"{\\"y\\":1}"}]');
  t.equal(jsonRowsText([{ a: 'text', b: 2, c: null }], ['a']), '[{"a":"text","b":2,"c":null}]');
  t.equal(jsonRowsText([], ['a']), '[]');
  // An escaped NUL or lone surrogate inside the text: PostgreSQL would refuse it in a json parameter.
  t.equal(jsonRowsText([{ a: '{"x":"\\u0000"}' }], ['a']), '[{"a":"{\\"x\\":\\"\\\\u0000\\"}"}]');
  t.equal(jsonRowsText([{ a: '["\\ud800"]' }], ['a']), '[{"a":"[\\"\\\\ud800\\"]"}]');
});
