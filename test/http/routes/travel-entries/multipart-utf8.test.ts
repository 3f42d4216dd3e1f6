// The entry part of a multipart create must be UTF-8, as a JSON body must (review, session 21): bytes
// that are not were decoded to U+FFFD and stored. As a file part: refused by its bytes. As a text
// field, which arrives decoded: refused by the U+FFFD the bad bytes became.
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
  const multipart = (entry: Buffer, asFile: boolean) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="entry"${asFile ? '; filename="entry.json"\r\nContent-Type: application/json' : ''}\r\n\r\n`,
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
});
