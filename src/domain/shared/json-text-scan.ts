// Two things read from JSON text before it is parsed, because the parsed value can no longer tell
// them, or costs too much to get:
// - How deep it nests. V8's JSON.parse spends time in proportion to the nesting (about 0.8 µs a
//   level: 380 ms for a body of 500,000 brackets, under the 1 MiB limit), all of it on the one
//   thread every tenant's requests share, and only then could findUnstorableValues
//   (storable-json.ts) refuse the result (security try, session 27). The scan stops at the first
//   container too deep, so a refusal costs what the text up to it costs.
// - A name given twice in one object. JSON.parse keeps the last; a proxy, a signing library or an
//   auditor's tool in front of us may keep the first, and then two programs read one request as
//   two different amounts (RFC 8259 §4: such text is read unpredictably).
import { MAX_JSON_DEPTH } from './storable-json.js';

interface Frame {
  array: boolean;
  /** An array's index of the item being read. */
  index: number;
  /** An object's key being read, as the raw JSON string token (quotes and escapes). */
  key: string | undefined;
  /** An object's names so far, decoded; made at its second name. */
  names: Set<string> | undefined;
  /** An object's first name, decoded (most objects have few names; no set for one). */
  firstName: string | undefined;
}

export type JsonPath = (string | number)[];

export interface JsonTextScan {
  /** The first container nested `maxDepth` or more containers deep (the root is at depth 0); the scan stopped there. */
  tooDeep?: JsonPath;
  /** The first name given a second time in its object, by the path of that second value. */
  repeatedName?: JsonPath;
}

/**
 * Scans `text` as JSON for the two findings above; paths are as findUnstorableValues reports them
 * on the parsed value. Text that is not JSON is left to the parser: the scan follows only brackets,
 * commas, colons and strings, and ends without a finding at a name it cannot decode. A repeated name
 * in text the parser then refuses is the parser's to report.
 */
export function scanJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextScan {
  const stack: Frame[] = [];
  let repeatedName: JsonPath | undefined;
  let lastString: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      lastString = text.slice(start, i + 1);
    } else if (c === 0x3a /* : */) {
      // A string token names at most one member: taken here, so text of colons after one long name
      // (`{"…":{:}{:}…`, not JSON, but scanned before the parser says so) decodes it once, not per colon.
      const token = lastString;
      lastString = undefined;
      const top = stack[stack.length - 1];
      if (!top || top.array || token === undefined) continue;
      top.key = token;
      if (repeatedName !== undefined) continue;
      const name = decodeName(token);
      if (name === undefined) return {};
      if (top.firstName === undefined) top.firstName = name;
      else {
        top.names ??= new Set([top.firstName]);
        if (top.names.has(name)) repeatedName = pathOf(stack);
        else top.names.add(name);
      }
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (stack.length >= maxDepth) {
        const tooDeep = pathOf(stack);
        return tooDeep === undefined ? {} : { tooDeep };
      }
      stack.push({ array: c === 0x5b, index: 0, key: undefined, names: undefined, firstName: undefined });
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      stack.pop();
    }
  }
  return repeatedName === undefined ? {} : { repeatedName };
}

/** A name's text: the token without its quotes when it holds no escape, else decoded by the parser. */
function decodeName(token: string): string | undefined {
  if (!token.includes('\\')) return token.slice(1, -1);
  try {
    return JSON.parse(token) as string;
  } catch {
    return undefined;
  }
}

function pathOf(stack: Frame[]): JsonPath | undefined {
  const path: JsonPath = [];
  for (const frame of stack) {
    if (frame.array) path.push(frame.index);
    else {
      const name = frame.key === undefined ? undefined : decodeName(frame.key);
      if (name === undefined) return undefined;
      path.push(name);
    }
  }
  return path;
}
