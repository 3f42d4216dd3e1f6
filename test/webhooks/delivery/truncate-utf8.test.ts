import t from 'tap';
import { truncateUtf8 } from '../../../src/webhooks/delivery/truncate-utf8.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

t.test('short input is returned whole', async (t) => {
  t.equal(truncateUtf8(Buffer.from('héllo'), 2048), 'héllo');
  t.equal(truncateUtf8('', 10), '');
  t.equal(truncateUtf8(Buffer.from('abc'), 3), 'abc');
});

t.test('never splits a character, for every cut position', async (t) => {
  // 1-, 2-, 3- and 4-byte characters in a row.
  const text = 'a\u00e9\u20ac\u{1F600}'.repeat(20);
  const buf = Buffer.from(text, 'utf8');
  for (let max = 0; max <= buf.length; max++) {
    const out = truncateUtf8(buf, max);
    t.ok(bytes(out) <= max, `fits in ${max}`);
    t.ok(text.startsWith(out), `a prefix of whole characters at ${max}`);
    t.notOk(out.includes('\uFFFD'), `no replacement character at ${max}`);
    t.ok(bytes(out) > max - 4, `loses at most one character at ${max}`);
  }
});

t.test('2 KB of multibyte text', async (t) => {
  const text = '€'.repeat(1000); // 3000 bytes
  const out = truncateUtf8(Buffer.from(text), 2048);
  t.equal(out, '€'.repeat(682)); // 2046 bytes; 683 would be 2049
  t.equal(truncateUtf8(text, 2048), out, 'string input too');
});

t.test('invalid UTF-8 is replaced and the result still fits', async (t) => {
  const junk = Buffer.alloc(3000, 0xff); // each byte decodes to U+FFFD (3 bytes)
  const out = truncateUtf8(junk, 2048);
  t.ok(bytes(out) <= 2048);
  t.equal(out, '\uFFFD'.repeat(682));
  t.equal(truncateUtf8(Buffer.from([0x61, 0xe2, 0x82]), 10), 'a\uFFFD', 'a truncated sequence inside the limit is replaced');
});

t.test('bad limit throws', async (t) => {
  t.throws(() => truncateUtf8('x', -1));
  t.throws(() => truncateUtf8('x', 1.5));
});
