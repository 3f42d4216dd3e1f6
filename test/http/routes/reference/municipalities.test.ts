// GET /api/v1/reference/croatian-municipalities and /slovenian-municipalities over real HTTP: the
// whole lists, search with and without diacritics, by code, ETag and 304, callable from any
// tenant with a read key, refused without one.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

const HR = '/api/v1/reference/croatian-municipalities';
const SI = '/api/v1/reference/slovenian-municipalities';

t.test('municipality lists', async (t) => {
  const app = await startTestApp(t);

  t.test('the whole lists: 556 Croatian and 212 Slovenian units, by code', async (t) => {
    const hr = await app.request('GET', HR);
    t.equal(hr.status, 200);
    t.equal(hr.body.items.length, 556);
    t.same(
      hr.body.items.filter((m: { code: string }) => m.code === '01333'),
      [{ code: '01333', name: 'Zagreb', type: 'grad', county: 'Grad Zagreb' }],
    );
    t.equal(new Set(hr.body.items.map((m: { code: string }) => m.code)).size, 556, 'codes are unique');
    t.ok(
      hr.body.items.every(
        (m: { code: string; type: string }, i: number, all: { code: string }[]) =>
          /^[0-9]{5}$/.test(m.code) && ['grad', 'općina'].includes(m.type) && (i === 0 || all[i - 1]!.code < m.code),
      ),
      '5-digit codes, leading zeros kept, sorted',
    );
    t.equal(hr.body.items.filter((m: { type: string }) => m.type === 'grad').length, 128);

    const si = await app.request('GET', SI);
    t.equal(si.status, 200);
    t.equal(si.body.items.length, 212);
    t.match(si.body.items[0], { code: '001', name: 'Ajdovščina', region: 'Goriška' });
    t.notOk(
      si.body.items.some((m: { code: string }) => m.code === '145'),
      '145 is not used',
    );
  });

  t.test('search: a prefix of the name or of any word, ignoring case and diacritics', async (t) => {
    const names = async (path: string, search: string) =>
      (await app.request('GET', `${path}?search=${encodeURIComponent(search)}`)).body.items.map((m: { name: string }) => m.name);
    t.same(await names(HR, 'cak'), ['Čakovec'], 'cak finds Čakovec');
    t.same(await names(HR, 'ČAK'), ['Čakovec'], 'with diacritics and upper case too');
    t.same(await names(HR, 'čakovec'), ['Čakovec']);
    t.ok((await names(HR, 'dakovo')).includes('Đakovo'), 'đ counts as d');
    t.same(await names(HR, 'cittanova'), ['Novigrad - Cittanova'], 'a later word of a bilingual name');
    t.same(await names(HR, 'novigrad cit'), ['Novigrad - Cittanova'], 'words across the hyphen');
    t.same((await names(HR, 'novigrad')).sort(), ['Novigrad', 'Novigrad - Cittanova', 'Novigrad Podravski'], 'same-name units, both');
    t.same(await names(HR, 'akovec'), [], 'a prefix, not an infix');
    t.same(await names(SI, 'ljubljana'), ['Ljubljana']);
    t.same(await names(SI, 'gradec'), ['Dobrova-Polhov Gradec', 'Slovenj Gradec'].sort(), 'a word after a hyphen or a space');
    t.ok(
      (await names(SI, 'sempeter')).some((n: string) => n.startsWith('Šempeter')),
      'š counts as s',
    );
    t.same(await names(SI, 'zzzz'), []);
  });

  t.test('by code, alone or with a search', async (t) => {
    t.same((await app.request('GET', `${HR}?code=04090`)).body.items, [
      { code: '04090', name: 'Split', type: 'grad', county: 'Splitsko-dalmatinska županija' },
    ]);
    t.same((await app.request('GET', `${HR}?code=04091`)).body.items, [], 'an unknown code is an empty list');
    t.same((await app.request('GET', `${HR}?code=04090&search=zag`)).body.items, [], 'both filters apply');
    t.same((await app.request('GET', `${SI}?code=061`)).body.items, [{ code: '061', name: 'Ljubljana', region: 'Osrednjeslovenska' }]);
    for (const [path, code] of [
      [HR, '4090'],
      [HR, 'abcde'],
      [SI, '61'],
      [SI, '0611'],
    ] as const) {
      const bad = await app.request('GET', `${path}?code=${code}`);
      t.equal(bad.status, 400, `${path}?code=${code}`);
      t.ok(bad.body.errors?.code, 'keyed by the parameter');
    }
    const empty = await app.request('GET', `${HR}?search=`);
    t.equal(empty.status, 400);
    t.ok(empty.body.errors?.search);
  });

  t.test('ETag and Cache-Control; If-None-Match answers 304', async (t) => {
    const first = await app.request('GET', `${HR}?search=cak`);
    const etag = first.headers.get('etag');
    t.match(etag, /^"[A-Za-z0-9_-]+"$/);
    t.equal(first.headers.get('cache-control'), 'public, max-age=86400');
    const again = await app.request('GET', `${HR}?search=cak`);
    t.equal(again.headers.get('etag'), etag, 'the same query, the same ETag');
    t.not((await app.request('GET', `${HR}?search=zag`)).headers.get('etag'), etag, 'another query, another ETag');
    t.not((await app.request('GET', HR)).headers.get('etag'), etag);

    const cached = await app.request('GET', `${HR}?search=cak`, { headers: { 'if-none-match': etag! } });
    t.equal(cached.status, 304);
    t.equal(cached.text, '');
    t.equal(cached.headers.get('etag'), etag);
    t.equal(
      (await app.request('GET', `${HR}?search=cak`, { headers: { 'if-none-match': `"other", W/${etag}` } })).status,
      304,
      'weak and listed',
    );
    t.equal((await app.request('GET', `${HR}?search=cak`, { headers: { 'if-none-match': '"other"' } })).status, 200);
    const si = await app.request('GET', SI);
    t.equal((await app.request('GET', SI, { headers: { 'if-none-match': si.headers.get('etag')! } })).status, 304);
  });

  t.test('any tenant with a read key, the same answer; none without a key', async (t) => {
    const other = await app.newTenant({ country: 'CZ', scopes: ['read'] });
    const mine = await app.request('GET', `${SI}?search=kop`);
    const theirs = await app.request('GET', `${SI}?search=kop`, { key: other.key });
    t.equal(theirs.status, 200);
    t.same(theirs.body, mine.body);
    t.equal(theirs.headers.get('etag'), mine.headers.get('etag'), 'one ETag for everyone: shared caches may keep it');
    const writeOnly = await app.newTenant({ scopes: ['write'] });
    t.equal((await app.request('GET', HR, { key: writeOnly.key })).status, 403);
    t.equal((await app.request('GET', HR, { key: null })).status, 401);
  });

  t.test('the OpenAPI document names the schemas, with examples', async (t) => {
    const doc = await app.request('GET', '/api-reference/openapi.json', { key: null });
    const schemas = doc.body.components.schemas;
    for (const name of ['CroatianMunicipality', 'SlovenianMunicipality', 'CroatianMunicipalityList', 'SlovenianMunicipalityList']) {
      t.ok(schemas[name], name);
      t.ok(schemas[name].examples?.length, `${name} has an example`);
    }
    t.ok(doc.body.paths['/api/v1/reference/croatian-municipalities'].get.responses['304']);
  });
});
