// The pure parts of attachment handling: magic-byte sniffing, the claimed-type rule, file-name
// sanitising and the Content-Disposition header.
import t from 'tap';
import { claimMatches, sniffContentType } from '../../src/attachments/sniff.js';
import { contentDisposition, sanitizeFileName } from '../../src/attachments/file-name.js';

const ftyp = (major: string, ...compatible: string[]): Buffer => {
  const box = Buffer.alloc(16 + 4 * compatible.length);
  box.writeUInt32BE(box.length, 0);
  box.write(`ftyp${major}\0\0\0\0${compatible.join('')}`, 4, 'latin1');
  return box;
};

t.test('sniffing reads the leading bytes only', async (t) => {
  t.equal(sniffContentType(Buffer.from('%PDF-1.4 ...')), 'application/pdf');
  t.equal(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 1])), 'image/jpeg');
  t.equal(sniffContentType(Buffer.from('89504e470d0a1a0a00', 'hex')), 'image/png');
  t.equal(sniffContentType(Buffer.from('RIFF\0\0\0\0WEBPVP8L', 'latin1')), 'image/webp');
  t.equal(sniffContentType(Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1')), null, 'RIFF that is not WebP');
  t.equal(sniffContentType(ftyp('heic', 'mif1', 'heic')), 'image/heic');
  t.equal(sniffContentType(ftyp('mif1', 'mif1', 'heic')), 'image/heic', 'a HEVC brand among the compatible ones');
  t.equal(sniffContentType(ftyp('mif1', 'mif1', 'avif')), 'image/heif', 'generic HEIF (e.g. AV1-coded) is HEIF, not HEIC');
  t.equal(sniffContentType(ftyp('isom', 'isom', 'mp41')), null, 'an MP4 video is not an image');
  t.equal(sniffContentType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null, 'SVG can carry scripts');
  t.equal(sniffContentType(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d])), 'application/pdf', 'a plain Uint8Array works too');
  t.equal(sniffContentType(Buffer.alloc(0)), null);
});

t.test('a claim must agree with the content; no claim agrees with anything', async (t) => {
  t.ok(claimMatches(undefined, 'image/png'));
  t.ok(claimMatches('application/octet-stream', 'application/pdf'));
  t.ok(claimMatches('IMAGE/JPG; name=x', 'image/jpeg'), 'case, parameters and aliases');
  t.ok(claimMatches('image/heif', 'image/heic'), 'one family');
  t.notOk(claimMatches('image/png', 'application/pdf'));
  t.notOk(claimMatches('text/plain', 'image/png'));
});

t.test('file names: base name, visible, honest extension, bounded', async (t) => {
  t.equal(sanitizeFileName('C:\\Users\\ana\\Račun.pdf', 'application/pdf'), 'Račun.pdf');
  t.equal(sanitizeFileName('Rac\u030cun.pdf', 'application/pdf'), 'Račun.pdf', 'NFC');
  t.equal(sanitizeFileName('inv\u202Efdp.exe', 'application/pdf'), 'invfdp.exe.pdf', 'bidi override removed, true extension appended');
  t.equal(
    sanitizeFileName('a\u0000b\tc\r\nd\u200b.png', 'image/png'),
    'ab c d.png',
    'controls and zero-width characters go, line breaks separate',
  );
  t.equal(sanitizeFileName('a<b>:c|d?e*f"g.jpg', 'image/jpeg'), 'a_b__c_d_e_f_g.jpg');
  t.equal(sanitizeFileName('  ..hidden.  ', 'image/png'), 'hidden.png');
  t.equal(sanitizeFileName('..', 'image/png'), 'attachment.png');
  t.equal(sanitizeFileName(undefined, 'image/webp'), 'attachment.webp');
  t.equal(sanitizeFileName('photo.JPEG', 'image/jpeg'), 'photo.JPEG', 'a fitting extension is kept as written');
  const long = sanitizeFileName(`${'😀'.repeat(200)}.pdf`, 'application/pdf');
  t.ok(long.length <= 255 && long.endsWith('😀.pdf'), 'bounded, no split surrogate pair, extension kept');
  t.notOk(/[\ud800-\udbff](?![\udc00-\udfff])/.test(long), 'no lone high surrogate');
});

t.test('Content-Disposition: ASCII fallback and the exact UTF-8 name', async (t) => {
  t.equal(contentDisposition('Račun (1).pdf'), `attachment; filename="Racun (1).pdf"; filename*=UTF-8''Ra%C4%8Dun%20%281%29.pdf`);
  // Latin-1 letters too (outside probe, session 21: they went out as single bytes, without filename*).
  t.equal(
    contentDisposition('Cestovný príkaz.pdf'),
    `attachment; filename="Cestovny prikaz.pdf"; filename*=UTF-8''Cestovn%C3%BD%20pr%C3%ADkaz.pdf`,
  );
  t.equal(contentDisposition('Straße 😀.png'), `attachment; filename="Stra?e ?.png"; filename*=UTF-8''Stra%C3%9Fe%20%F0%9F%98%80.png`);
  for (const name of ['Müller.pdf', 'é.pdf', 'Ω.pdf', 'a\u00a0b.pdf'])
    t.match(contentDisposition(name), /^[\x20-\x7e]*$/, `${name}: ASCII only`);
  t.equal(contentDisposition("it's.png"), `attachment; filename="it's.png"`, 'plain ASCII needs no filename*');
  t.equal(contentDisposition('a"b.pdf'), 'attachment; filename="a\\"b.pdf"', 'a quote is escaped, not dropped');
});
