// The allow-list of attachment types, recognised by their magic bytes. The client's part
// Content-Type is only a claim: a text file sent as image/png must not be stored or served as one.

export const ALLOWED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
export type AllowedContentType = (typeof ALLOWED_CONTENT_TYPES)[number];

const startsWith = (buf: Buffer, bytes: readonly number[]): boolean => buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);
const ascii = (buf: Buffer, from: number, to: number): string => buf.subarray(from, to).toString('latin1');

// ISO base media file brands (ISO/IEC 23008-12): HEVC-coded images are HEIC, the rest of HEIF is HEIF.
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2']);

function isoBrand(buf: Buffer): AllowedContentType | null {
  if (buf.length < 12 || ascii(buf, 4, 8) !== 'ftyp') return null;
  const boxSize = Math.min(buf.readUInt32BE(0), buf.length);
  // The major brand, then the compatible brands: a HEIF file often has a generic major brand.
  const brands = [ascii(buf, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(buf, at, at + 4));
  if (brands.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
  if (brands.some((b) => HEIF_BRANDS.has(b))) return 'image/heif';
  return null;
}

/** The allowed type the bytes are, or null when they are none of them. */
export function sniffContentType(bytes: Uint8Array): AllowedContentType | null {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(buf, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return 'image/webp';
  return isoBrand(buf);
}

// Names clients and operating systems use for the same formats.
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'application/x-pdf': 'application/pdf',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
};
/** Claims that say nothing about the format (FormData sends a Blob without a type like this). */
const NO_CLAIM = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

/** `image/PNG; charset=x` → `image/png`. */
export function normalizeMediaType(raw: string | undefined): string {
  const essence = (raw ?? '').split(';')[0]!.trim().toLowerCase();
  // Own keys only: the claim is the client's text, and may be `constructor`.
  return Object.hasOwn(ALIASES, essence) ? ALIASES[essence]! : essence;
}

const family = (type: string): string => (type === 'image/heif' ? 'image/heic' : type);

/** Whether the client's claimed type agrees with the sniffed one (no claim agrees with anything). */
export function claimMatches(claimed: string | undefined, sniffed: AllowedContentType): boolean {
  const type = normalizeMediaType(claimed);
  return NO_CLAIM.has(type) || family(type) === family(sniffed);
}
