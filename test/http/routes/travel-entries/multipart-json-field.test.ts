// The entry part of a multipart create as a text field typed application/json, with no filename: what
// Spring's MultipartBodyBuilder, .NET's StringContent(…, "application/json") and Python requests'
// `files={'entry': (None, json, 'application/json')}` send (outside try, session 23). @fastify/multipart
// parses such a field itself, and the create read the parsed object as "[object Object]": a 400 for a
// valid entry. Bad JSON in such a field was a 400 keyed `body`; it is the entry that is wrong.
import t from 'tap';
import { startTestApp } from '../../../helpers/app.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), Buffer.alloc(64, 0x20)]);

t.test('multipart entry part as a JSON-typed text field', async (t) => {
  const app = await startTestApp(t);
  const employee = (await app.request('POST', '/api/v1/employees', { body: { firstName: 'Json', lastName: 'Field' } })).body.id as string;
  const entry = (destination: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `{"employeeId":"${employee}","departureDate":"2025-04-14","returnDate":"2025-04-15","travelType":"Domestic","currencyCode":"EUR","destination":"`,
      ),
      destination,
      Buffer.from('"}'),
    ]);
  const boundary = 'xX-travelog-json-field';
  const multipart = (entryPart: Buffer, type = 'application/json') =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="entry"\r\nContent-Type: ${type}\r\n\r\n`),
      entryPart,
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

  for (const type of ['application/json', 'application/json; charset=utf-8']) {
    const good = await post(multipart(entry(Buffer.from('Šibenik', 'utf8')), type));
    t.same([good.status, good.body.destination, good.body.attachments?.length], [201, 'Šibenik', 1], `${type}: ${good.text.slice(0, 300)}`);
  }

  const notJson = await post(multipart(Buffer.from('{"employeeId": ')));
  t.equal(notJson.status, 400, notJson.text);
  t.same(Object.keys(notJson.body.errors), ['entry'], 'bad JSON in a JSON-typed field is the entry that is wrong');

  const notUtf8 = await post(multipart(entry(Buffer.from([0x5a, 0xff, 0xfe, 0x5a]))));
  t.same([notUtf8.status, notUtf8.body.errors], [400, { entry: ['Not valid UTF-8.'] }], notUtf8.text);

  const invalidEntry = await post(multipart(Buffer.from(`{"employeeId":"${employee}","travelType":"Nowhere"}`)));
  t.equal(invalidEntry.status, 400, invalidEntry.text);
  t.ok(
    Object.keys(invalidEntry.body.errors).every((k) => k.startsWith('entry.')),
    `a parsed field is judged as the JSON create is, keyed entry.<field>: ${Object.keys(invalidEntry.body.errors).join(', ')}`,
  );

  const list = await app.request('GET', '/api/v1/travel-entries');
  t.equal(list.body.items.length, 2, 'only the two good creates stored an entry');
});
