// The entry part of a multipart create, as clients send it. It must be UTF-8, as a JSON body must
// (review, session 21): bytes that are not were decoded to U+FFFD and stored. As a file part: refused
// by its bytes. As a text field, which arrives decoded: refused by the U+FFFD the bad bytes became.
// As a text field typed application/json, with no filename (Spring's MultipartBodyBuilder, .NET's
// StringContent(…, "application/json"), Python requests' `files={'entry': (None, json,
// 'application/json')}`; outside try, session 23): @fastify/multipart parses such a field itself,
// and the create read the object as "[object Object]", a 400 for a valid entry; bad JSON there was a
// 400 keyed `body`, where it is the entry that is wrong.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), Buffer.alloc(64, 0x20)]);

t.test('multipart entry part encoding', async (t) => {
  const app = await startTestApp(t);
  const employee = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Multi', lastName: 'Part' } })).body.id as string;
  const entryWith = (destination: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `{"employeeId":"${employee}","departureDate":"2025-04-14","returnDate":"2025-04-15","travelType":"Domestic","currencyCode":"EUR","destination":"`,
      ),
      destination,
      Buffer.from('"}'),
    ]);
  const boundary = 'xX-travelog-boundary';
  /** `asFile`: a file part; else a text field, typed `fieldType` when given. */
  const multipart = (entry: Buffer, asFile: boolean, fieldType?: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="entry"${asFile ? '; filename="entry.json"\r\nContent-Type: application/json' : fieldType ? `\r\nContent-Type: ${fieldType}` : ''}\r\n\r\n`,
      ),
      entry,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const post = (body: Buffer) =>
    app.request('POST', '/api/v1/travel-entries', {
      rawBody: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });

  for (const asFile of [true, false]) {
    const bad = await post(multipart(entryWith(Buffer.from([0x5a, 0xff, 0xfe, 0x5a])), asFile));
    t.same([bad.status, bad.body.errors], [400, { entry: ['Not valid UTF-8.'] }], `${asFile ? 'file' : 'field'} part: ${bad.text}`);
    const good = await post(multipart(entryWith(Buffer.from('Šibenik', 'utf8')), asFile));
    t.same([good.status, good.body.destination], [201, 'Šibenik'], `${asFile ? 'file' : 'field'} part: ${good.text.slice(0, 300)}`);
  }

  for (const type of ['application/json', 'application/json; charset=utf-8']) {
    const good = await post(multipart(entryWith(Buffer.from('Šibenik', 'utf8')), false, type));
    t.same(
      [good.status, good.body.destination, good.body.attachments?.length],
      [201, 'Šibenik', 1],
      `${type} field: ${good.text.slice(0, 300)}`,
    );
  }
  const json = (entry: Buffer) => post(multipart(entry, false, 'application/json'));
  const notJson = await json(Buffer.from('{"employeeId": '));
  t.same([notJson.status, Object.keys(notJson.body.errors ?? {})], [400, ['entry']], `bad JSON in a JSON-typed field: ${notJson.text}`);
  const notUtf8 = await json(entryWith(Buffer.from([0x5a, 0xff, 0xfe, 0x5a])));
  t.same([notUtf8.status, notUtf8.body.errors], [400, { entry: ['Not valid UTF-8.'] }], notUtf8.text);
  const invalid = await json(Buffer.from(`{"employeeId":"${employee}","travelType":"Nowhere"}`));
  t.equal(invalid.status, 400, invalid.text);
  t.ok(
    Object.keys(invalid.body.errors).every((k) => k.startsWith('entry.')),
    `a parsed field is judged as the JSON create is, keyed entry.<field>: ${Object.keys(invalid.body.errors).join(', ')}`,
  );
});
