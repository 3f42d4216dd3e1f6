// File names come from the client and leave again in a Content-Disposition header and on the
// partner's disk, so they are cut down to a plain, printable base name with an honest extension.
import buildContentDisposition from 'content-disposition';
import type { AllowedContentType } from './sniff.js';

/** The domain keeps at most 255 characters (validateAttachment). */
export const MAX_FILE_NAME_LENGTH = 255;

const EXTENSIONS: Record<AllowedContentType, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/heic': ['heic', 'heif'],
  'image/heif': ['heif', 'heic'],
};

// Control characters, and the invisible ones that disguise a name: bidi overrides turn
// "receipt\u202Efdp.exe" into what reads as "receiptexe.pdf"; zero-width characters hide in lookalikes.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;
// Characters that are path separators or reserved on common file systems (Windows is the strictest).
const RESERVED = /[<>:"/\\|?*]/g;

/** At most `max` UTF-16 units (how the domain counts), whole code points only, extension kept. */
function truncateKeepingExtension(name: string, max: number): string {
  if (name.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  let stem = '';
  for (const ch of name.slice(0, name.length - ext.length)) {
    if (stem.length + ch.length > max - ext.length) break;
    stem += ch;
  }
  return stem.trimEnd() + ext;
}

/** A safe base name for an uploaded file whose bytes are `type`. */
export function sanitizeFileName(raw: string | undefined, type: AllowedContentType): string {
  const canonical = EXTENSIONS[type][0]!;
  let name = (raw ?? '').normalize('NFC');
  // Only the last path segment: busboy already drops directories, browsers on Windows may not.
  name = name.split(/[/\\]/).pop() ?? '';
  // Line breaks and tabs separate words: they become spaces before the other controls vanish.
  name = name
    .replace(/[\t\n\v\f\r]+/g, ' ')
    .replace(INVISIBLE, '')
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .trim();
  // No hidden files, no "." or ".."; Windows drops trailing dots and spaces.
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name === '') name = 'attachment';
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  // The name must not promise another format than the one served ("scan.txt" that is a PDF).
  const suffix = ext !== undefined && EXTENSIONS[type].includes(ext) ? '' : `.${canonical}`;
  return truncateKeepingExtension(name, MAX_FILE_NAME_LENGTH - suffix.length) + suffix;
}

/**
 * RFC 6266 by the content-disposition package: an ASCII fallback for old clients and, when the name
 * is not plain ASCII, the exact name in RFC 8187 `filename*`. The fallback is ours: the package
 * keeps Latin-1 letters in `filename=` without `filename*`, and Node sends them as single bytes
 * that a UTF-8 reader turns into other letters (`Cestovný` arrived as `Cestovn\xFD`). Ours drops
 * accents (`Cestovny`) and writes `?` for what ASCII still cannot say.
 */
export function contentDisposition(fileName: string): string {
  return buildContentDisposition(fileName, { type: 'attachment', fallback: asciiFallback(fileName) });
}

function asciiFallback(fileName: string): string {
  return fileName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/gu, '?');
}
