// docs/partners.md shows partners code to copy and files to write: the signature check is run
// against the signatures deliveries carry, and the sample rate files through the importers' parsers,
// so the page cannot drift from what the server does.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateSigningSecret, signPayload } from '../../src/webhooks/delivery/signature.js';
import { parseRates } from '../../src/rates/parse/index.js';

const page = readFileSync(new URL('../../docs/partners.md', import.meta.url), 'utf8');
const blocks = (lang: string): string[] => [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

t.test('the signature check on the page accepts what deliveries carry, and nothing else', async (t) => {
  const [code] = blocks('ts');
  t.ok(code?.includes('export function signedByTravelog'), 'the page shows the check');
  const dir = mkdtempSync(path.join(tmpdir(), 'travelog-partners-page-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'verify.ts');
  writeFileSync(file, code!);
  const { signedByTravelog } = (await import(pathToFileURL(file).href)) as {
    signedByTravelog: (header: string, body: Buffer, secret: string, tolerance?: number) => boolean;
  };
  const body = Buffer.from('{"id":"evt_1","type":"entry.created","data":{"amount":1.5,"name":"Željka"}}');
  const [secret, older] = [generateSigningSecret(), generateSigningSecret()];
  const now = Math.floor(Date.now() / 1000);
  t.ok(signedByTravelog(signPayload(body, [secret], now), body, secret), 'a delivery signed with the secret');
  t.ok(signedByTravelog(signPayload(body, [older, secret], now), body, secret), 'during a rotation, either v1');
  t.notOk(signedByTravelog(signPayload(body, [secret], now), Buffer.from(`${body.toString()} `), secret), 'other bytes');
  t.notOk(signedByTravelog(signPayload(body, [older], now), body, secret), 'another secret');
  t.notOk(signedByTravelog(signPayload(body, [secret], now - 301), body, secret), 'an old timestamp');
  t.notOk(signedByTravelog('t=abc,v1=zz', body, secret), 'a malformed header');
});

t.test('the sample rate files are read by the importers as the page says', async (t) => {
  const [text] = blocks('text');
  const sample = (provider: string): string => {
    const start = text!.indexOf(`${provider} (`);
    const rest = text!.slice(text!.indexOf('\n', start) + 1);
    const end = rest.search(/\n\n|$/);
    return rest.slice(0, end);
  };
  t.same(parseRates('HNB', sample('HNB')), [{ date: '2026-11-02', currency: 'USD', rate: '1.1346', units: 1 }]);
  t.same(parseRates('ECB', sample('ECB')), [{ date: '2026-11-02', currency: 'USD', rate: '1.1346', units: 1 }]);
  t.same(parseRates('CNB', sample('CNB')), [
    { date: '2026-11-02', currency: 'HUF', rate: '6.498', units: 100 },
    { date: '2026-11-02', currency: 'EUR', rate: '24.215', units: 1 },
  ]);
});
