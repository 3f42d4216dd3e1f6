// A large JSON page as bytes, for the routes that write their answer with native JSON.stringify
// (the history of a resource: 200 events are half a megabyte). One JSON.stringify of the whole page
// leaves V8 a string it must flatten and encode twice more: once when Fastify measures it for
// Content-Length and once when the socket writes it, about 4 ms for 550 KB. Items serialised one by
// one are small flat strings: encoded each and joined as bytes, the same answer costs about half
// (docs/benchmarks.md, session 10), and Fastify sends a Buffer as it is.

const OPEN = Buffer.from('{"items":[');
const COMMA = Buffer.from(',');

/**
 * `{"items":[…],…rest}`: byte for byte what `JSON.stringify({ items, ...rest })` writes (items first,
 * then the other fields in their order), as UTF-8, for items that are JSON values (a history item
 * is): an `undefined` item or one with its own `toJSON(key)` would differ. The other fields' names
 * are not integer-like ("0", "12"): in one object literal JavaScript would list those before the items.
 */
export function jsonPageBytes(items: readonly unknown[], rest: Record<string, unknown>): Buffer {
  const parts: Buffer[] = [OPEN];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA); // a Buffer of its own: prefixing the item's text would copy it
    parts.push(Buffer.from(JSON.stringify(items[i])));
  }
  const tail = JSON.stringify(rest);
  // `{}` adds nothing after the items; otherwise its fields follow them, after a comma.
  parts.push(Buffer.from(tail === '{}' ? ']}' : `],${tail.slice(1)}`));
  return Buffer.concat(parts);
}
