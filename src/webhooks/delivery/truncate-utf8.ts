// The partner's response body is stored for the delivery log, capped at 2 KB. Cutting bytes at an
// arbitrary offset can split a multi-byte character, which would leave invalid UTF-8 (rejected by a
// PostgreSQL text column, or shown as garbage). This cuts at a character boundary instead.

/**
 * Decodes `input` as UTF-8 (invalid bytes become U+FFFD) and returns the longest prefix whose UTF-8
 * encoding is at most `maxBytes` bytes, never ending inside a character.
 */
export function truncateUtf8(input: Buffer | string, maxBytes: number): string {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError('maxBytes must be a non-negative integer');
  let bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (bytes.length > maxBytes) bytes = bytes.subarray(0, boundaryAtOrBefore(bytes, maxBytes));
  const text = bytes.toString('utf8');
  // Replacement characters take 3 bytes, so decoding invalid input can grow it past the cap; the
  // re-encoded text is valid UTF-8, so the second cut is exact.
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const valid = Buffer.from(text, 'utf8');
  return valid.subarray(0, boundaryAtOrBefore(valid, maxBytes)).toString('utf8');
}

/** The largest offset <= limit that does not fall inside a multi-byte character. */
function boundaryAtOrBefore(bytes: Buffer, limit: number): number {
  // bytes[limit] is the first byte left out. If it continues a character (10xxxxxx), walk back over
  // at most three continuation bytes to that character's lead byte and cut before it.
  let cut = limit;
  while (cut > 0 && cut > limit - 3 && isContinuation(bytes[cut])) cut--;
  return isContinuation(bytes[cut]) ? limit : cut; // still inside? not UTF-8 anyway; the decoder replaces it
}

function isContinuation(b: number | undefined): boolean {
  return b !== undefined && (b & 0xc0) === 0x80;
}
