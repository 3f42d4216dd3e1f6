// The URL-policy battery: every non-public range, as an IP-literal URL and as a resolved address;
// alternative IPv4 spellings; IPv4-embedding IPv6 forms; the allow-list; syntax rules; DNS failures.
import t from 'tap';
import { isAllowedAddress, parseAllowedCidrs } from '../../../src/webhooks/subscriptions/address-policy.js';
import { checkWebhookUrl, type Resolver } from '../../../src/webhooks/subscriptions/url-policy.js';

const answering = (...addresses: string[]): Resolver & { calls: string[] } => {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
};
const noResolver: Resolver = async (host) => {
  throw new Error(`resolver must not be called (${host})`);
};
const literalUrl = (a: string): string => (a.includes(':') ? `https://[${a}]/hook` : `https://${a}/hook`);

const FORBIDDEN_V4 = [
  '0.0.0.0',
  '0.1.2.3',
  '0.255.255.255', // this network
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.0.1',
  '192.168.255.255', // RFC 1918
  '127.0.0.1',
  '127.255.255.254', // loopback
  '169.254.0.1',
  '169.254.169.254', // link-local, metadata
  '100.64.0.1',
  '100.100.100.200',
  '100.127.255.255', // CGNAT
  '192.0.0.1',
  '192.0.0.170',
  '192.0.2.1',
  '198.51.100.7',
  '203.0.113.9', // IETF, documentation
  '192.88.99.1',
  '198.18.0.1',
  '198.19.255.255', // 6to4 relay, benchmarking
  '224.0.0.1',
  '239.255.255.250', // multicast
  '240.0.0.1',
  '255.255.255.254',
  '255.255.255.255', // class E, broadcast
];
const PUBLIC_V4 = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
];
const FORBIDDEN_V6 = [
  '::',
  '::1', // unspecified, loopback
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:0.0.0.0',
  '::ffff:192.168.1.1', // IPv4-mapped
  '::127.0.0.1',
  '::a9fe:a9fe',
  '::8.8.8.8', // IPv4-compatible (deprecated; refused outright)
  '::ffff:0:7f00:1', // SIIT
  'fc00::1',
  'fd00::1',
  'fd00:ec2::254', // unique local, AWS IPv6 metadata
  'fe80::1',
  'febf::1',
  'fec0::1', // link-local, site-local
  'ff02::1',
  'ff0e::1', // multicast
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::a00:1',
  '64:ff9b::c0a8:101', // NAT64 of non-public
  '64:ff9b:1::808:808',
  '64:ff9b:1:ffff::1', // local-use NAT64 prefix
  '2002:7f00:1::',
  '2002:a00:1::1',
  '2002:a9fe:a9fe::',
  '2002:c0a8:101:1::1', // 6to4 of non-public
  '2001::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '2001:db8::1',
  '3fff::1', // documentation
  '2001:2::1',
  '2001:10::1',
  '2001:20::1', // benchmarking, ORCHID
  '100::1',
  '5f00::1',
  '4000::1',
  'e000::1', // discard, SRv6, outside 2000::/3
];
const PUBLIC_V6 = [
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8', // mapped public
  '64:ff9b::808:808', // NAT64 of a public address (DNS64 networks)
  '2002:808:808::1', // 6to4 of a public address
];

t.test('address classification', async (t) => {
  for (const a of [...FORBIDDEN_V4, ...FORBIDDEN_V6]) t.equal(isAllowedAddress(a), false, `${a} refused`);
  for (const a of [...PUBLIC_V4, ...PUBLIC_V6]) t.equal(isAllowedAddress(a), true, `${a} allowed`);
  for (const junk of ['', 'localhost', '0177.0.0.1', '127.1', '2130706433', '[::1]', 'fe80::1%eth0', '1.2.3.4/32']) {
    t.equal(isAllowedAddress(junk), false, `non-canonical "${junk}" refused`);
  }
});

t.test('IP-literal URLs: forbidden ranges refused without any lookup, public ones pass', async (t) => {
  for (const a of [...FORBIDDEN_V4, ...FORBIDDEN_V6]) {
    const r = await checkWebhookUrl(literalUrl(a), { resolver: noResolver });
    t.match(r, { ok: false, code: 'WEBHOOK_URL_FORBIDDEN_ADDRESS' }, literalUrl(a));
  }
  for (const a of [...PUBLIC_V4, ...PUBLIC_V6]) {
    const r = await checkWebhookUrl(literalUrl(a), { resolver: noResolver });
    t.equal(r.ok, true, literalUrl(a));
  }
});

t.test('resolved addresses: each forbidden range refused, as a name that does not resolve is', async (t) => {
  const notFound: Resolver = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
  const unresolved = await checkWebhookUrl('https://nowhere.invalid/', { resolver: notFound });
  for (const a of [...FORBIDDEN_V4, ...FORBIDDEN_V6]) {
    const r = await checkWebhookUrl('https://partner.example/hook', { resolver: answering(a) });
    t.same(r, unresolved, `${a}: the same refusal, so the answer does not tell which names our resolver knows`);
    if (!r.ok) t.notMatch(r.message, /\d+\.\d+\.\d+\.\d+|::|[0-9a-f]{1,4}:[0-9a-f]{1,4}/i, 'no address in the message');
  }
  for (const a of [...PUBLIC_V4, ...PUBLIC_V6]) {
    const r = await checkWebhookUrl('https://partner.example/hook', { resolver: answering(a) });
    t.match(r, { ok: true, addresses: [{ address: a, family: a.includes(':') ? 6 : 4 }] }, a);
  }
});

t.test('any forbidden answer refuses the URL, even next to public ones', async (t) => {
  t.match(await checkWebhookUrl('https://mixed.example/', { resolver: answering('8.8.8.8', '10.0.0.1') }), {
    ok: false,
    code: 'WEBHOOK_URL_UNRESOLVABLE',
  });
  t.match(await checkWebhookUrl('https://mixed.example/', { resolver: answering('2606:4700:4700::1111', '::1') }), {
    ok: false,
    code: 'WEBHOOK_URL_UNRESOLVABLE',
  });
  t.match(
    await checkWebhookUrl('https://odd.example/', { resolver: answering('8.8.8.8', 'not-an-ip') }),
    { ok: false, code: 'WEBHOOK_URL_UNRESOLVABLE' },
    'junk from the resolver counts as forbidden',
  );
  const ok = await checkWebhookUrl('https://dual.example/', { resolver: answering('8.8.8.8', '2001:4860:4860::8888', '8.8.8.8') });
  t.match(
    ok,
    {
      ok: true,
      addresses: [
        { address: '8.8.8.8', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
    },
    'all addresses kept, duplicates dropped',
  );
});

t.test('decimal, hex, octal and other IPv4 spellings are normalised, then refused', async (t) => {
  const spellings = [
    'https://2130706433/',
    'https://0x7f.1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://0x7f000001/',
    'https://0x7F.0.0.1/',
    'https://%31%32%37.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://[0:0:0:0:0:ffff:7f00:1]/',
    'https://0/',
    'https://3232235777/',
    'https://0xa9fea9fe/',
    'https://0251.0376.0251.0376/',
    'https://167772161/',
    'https://[::]/',
    'https://[::1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[2002:7f00:0001::]/',
  ];
  for (const u of spellings) {
    t.match(await checkWebhookUrl(u, { resolver: noResolver }), { ok: false, code: 'WEBHOOK_URL_FORBIDDEN_ADDRESS' }, u);
  }
});

t.test('allowedPrivateCidrs lets exactly the named ranges through', async (t) => {
  const loop = { allowedPrivateCidrs: ['127.0.0.0/8'], resolver: noResolver };
  for (const u of [
    'https://127.0.0.1:8443/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://0177.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://127.9.9.9/',
  ]) {
    t.match(await checkWebhookUrl(u, loop), { ok: true }, `${u} allowed by 127.0.0.0/8`);
  }
  for (const u of ['https://0/', 'https://[::1]/', 'https://10.0.0.1/', 'https://169.254.169.254/', 'https://[64:ff9b:1::7f00:1]/']) {
    t.match(await checkWebhookUrl(u, loop), { ok: false, code: 'WEBHOOK_URL_FORBIDDEN_ADDRESS' }, `${u} still refused`);
  }
  const ten = parseAllowedCidrs(['10.0.0.0/8', 'fd00::/8']);
  t.ok(isAllowedAddress('10.1.2.3', ten));
  t.ok(isAllowedAddress('::ffff:10.1.2.3', ten), 'mapped form follows the IPv4 allow-list');
  t.ok(isAllowedAddress('64:ff9b::a01:203', ten), 'NAT64 form follows the IPv4 allow-list');
  t.ok(isAllowedAddress('fd00::5', ten));
  t.notOk(isAllowedAddress('fc00::5', ten));
  t.notOk(isAllowedAddress('192.168.1.1', ten));
  t.notOk(isAllowedAddress('127.0.0.1', ten));
  t.match(await checkWebhookUrl('https://internal.example/', { allowedPrivateCidrs: ['10.0.0.0/8'], resolver: answering('10.0.0.7') }), {
    ok: true,
    addresses: [{ address: '10.0.0.7' }],
  });
  t.throws(() => parseAllowedCidrs(['not-a-cidr']));
});

t.test('scheme and shape', async (t) => {
  const pub = answering('93.184.216.34');
  const code = async (u: string): Promise<string> => {
    const r = await checkWebhookUrl(u, { resolver: pub });
    return r.ok ? 'ok' : r.code;
  };
  t.equal(await code('http://partner.example/hook'), 'WEBHOOK_URL_NOT_HTTPS');
  t.equal(await code('ftp://partner.example/hook'), 'WEBHOOK_URL_NOT_HTTPS');
  t.equal(await code('wss://partner.example/hook'), 'WEBHOOK_URL_NOT_HTTPS');
  t.equal(await code('javascript:alert(1)'), 'WEBHOOK_URL_NOT_HTTPS');
  t.equal(await code('partner.example/hook'), 'WEBHOOK_URL_INVALID');
  t.equal(await code(''), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://user:pass@partner.example/hook'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://user@partner.example/hook'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://partner.example/hook#frag'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://partner.example/hook#'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://partner.example:0/hook'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://partner.example:65536/hook'), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://[fe80::1%25eth0]/'), 'WEBHOOK_URL_INVALID');
  t.equal(await code(`https://partner.example/${'a'.repeat(2100)}`), 'WEBHOOK_URL_INVALID');
  t.equal(await code('https://partner.example:8443/hooks/travelog?tenant=7'), 'ok');
  const r = await checkWebhookUrl('HTTPS://Partner.EXAMPLE:443/Hook?x=1', { resolver: pub });
  t.match(r, { ok: true });
  if (r.ok) t.equal(r.url.href, 'https://partner.example/Hook?x=1', 'normalised href to store');
  t.same(pub.calls.at(-1), 'partner.example', 'the resolver gets the bare host name');
});

t.test('resolution failures', async (t) => {
  const notFound: Resolver = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
  };
  const r1 = await checkWebhookUrl('https://nowhere.invalid/', { resolver: notFound });
  t.same(
    r1,
    {
      ok: false,
      code: 'WEBHOOK_URL_UNRESOLVABLE',
      message:
        'The host name of the URL does not resolve to public addresses only (it has no address, or one that is not publicly routable).',
    },
    'no resolver error code in the message',
  );
  t.match(await checkWebhookUrl('https://empty.example/', { resolver: answering() }), { ok: false, code: 'WEBHOOK_URL_UNRESOLVABLE' });
  const hang: Resolver = () => new Promise(() => undefined);
  const started = Date.now();
  t.match(await checkWebhookUrl('https://slow.example/', { resolver: hang, resolveTimeoutMs: 50 }), {
    ok: false,
    code: 'WEBHOOK_URL_UNRESOLVABLE',
  });
  t.ok(Date.now() - started < 5000, 'bounded by resolveTimeoutMs (the resolver never answers)');
});

t.test('the system resolver is the default (localhost resolves to loopback and is refused)', async (t) => {
  t.match(await checkWebhookUrl('https://localhost/'), { ok: false, code: 'WEBHOOK_URL_UNRESOLVABLE' });
});
