// canonicalJson (the hash chain's RFC 8785 form) against the `canonicalize` package, which hashed
// every chain recorded before it: byte-equal output over arbitrary JSON values, and the same
// refusals. The RFC's own examples (RFC 8785 section 3.2.2, 3.2.3 and appendix B) are checked on
// both, so the reference is held to the standard too.
import fc from 'fast-check';
import t from 'tap';
import canonicalize from 'canonicalize';
import { canonicalJson } from '../../src/application/audit/canonical-json.js';

const RUNS = 2_000;

/**
 * Characters where orders and escapes differ: controls, quote and backslash, U+2028, digits (integer-
 * like keys, which JavaScript enumerates first), and BMP characters above the surrogates next to
 * astral ones (UTF-16 code-unit order puts U+1F600 before U+FFFF; code-point order puts it after).
 */
const tricky = fc.constantFrom(
  ...['\u0000', '\u0001', '\u001f', '\b', '\n', '\r', '"', '\\', '/', '\u007f', '\u0080', '\u00f6', '\u2028', '\u2029', '\u20ac'],
  ...['\ue000', '\ufb33', '\ufeff', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}', '0', '1', '9', 'a', 'A', 'z', ' '],
);
const trickyUnit = fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));

t.test('equal to canonicalize on arbitrary JSON values (unicode strings)', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (v) => canonicalJson(v) === canonicalize(v)),
    { numRuns: RUNS },
  );
  t.pass(`${RUNS} values`);
});

t.test('equal to canonicalize where key order and escapes differ by encoding', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: trickyUnit, maxDepth: 4 }), (v) => canonicalJson(v) === canonicalize(v)),
    { numRuns: RUNS },
  );
  const keys = fc.dictionary(fc.string({ unit: trickyUnit, maxLength: 4 }), fc.integer(), { maxKeys: 12 });
  fc.assert(
    fc.property(keys, (v) => canonicalJson(v) === canonicalize(v)),
    { numRuns: RUNS },
  );
  t.equal(canonicalJson({ '\uffff': 1, '\u{1f600}': 2 }), '{"\u{1f600}":2,"\uffff":1}', 'UTF-16 code units, not code points');
  t.equal(canonicalJson({ b: 1, '10': 2, '9': 3, a: 4 }), '{"10":2,"9":3,"a":4,"b":1}', 'integer-like keys sorted as text');
  t.equal(
    canonicalJson({ k: { z: 1, y: [{ b: 1, a: 2 }] }, u: undefined }),
    '{"k":{"y":[{"a":2,"b":1}],"z":1}}',
    'nested, undefined left out',
  );
});

t.test('equal to canonicalize on every double', async (t) => {
  const double = fc.double({ noNaN: true, noDefaultInfinity: true });
  fc.assert(
    fc.property(fc.array(double, { maxLength: 20 }), (v) => canonicalJson(v) === canonicalize(v)),
    { numRuns: RUNS },
  );
  t.equal(canonicalJson([-0, 0]), '[0,0]');
});

t.test('what RFC 8785 forbids throws, as in canonicalize', async (t) => {
  const loneSurrogates = ['\ud800', 'a\udbffb', '\udc00', 'x\udfff', '\ude00\ud83d'];
  for (const s of loneSurrogates) {
    t.throws(() => canonicalize({ s }), `reference: ${JSON.stringify(s)}`);
    t.throws(() => canonicalJson({ s }), /Lone surrogate/, `value ${JSON.stringify(s)}`);
    t.throws(() => canonicalJson({ [s]: 1 }), /Lone surrogate/, `key ${JSON.stringify(s)}`);
  }
  for (const n of [NaN, Infinity, -Infinity]) {
    t.throws(() => canonicalize([n]), `reference: ${n}`);
    t.throws(() => canonicalJson([n]), /not allowed/, String(n));
  }
  t.throws(() => canonicalJson({ f: () => 1 }), TypeError, 'a function');
  t.throws(() => canonicalJson({ n: 1n }), TypeError, 'a bigint');
  t.equal(canonicalJson({ s: '\ud83d\ude00' }), '{"s":"\ud83d\ude00"}', 'a surrogate pair is one character, written as it is');
  t.equal(canonicalJson({ s: '\\ud800' }), '{"s":"\\\\ud800"}', 'a backslash before "ud800" is text, not a surrogate');
});

t.test('the RFC 8785 examples', async (t) => {
  const both = (value: unknown, expected: string, what: string) => {
    t.equal(canonicalize(value), expected, `reference: ${what}`);
    t.equal(canonicalJson(value), expected, what);
  };
  // 3.2.2: the parsed sample input (its text goes through JSON.parse, as a request body does).
  both(
    JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    ),
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    'section 3.2.2',
  );
  // 3.2.3: sorting by UTF-16 code units.
  both(
    {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    },
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    'section 3.2.3',
  );
  // Appendix B: IEEE 754 doubles (hex) and their serialization.
  const doubles: [string, string][] = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  for (const [hex, text] of doubles) both(Buffer.from(hex, 'hex').readDoubleBE(0), text, `appendix B ${hex}`);
});
