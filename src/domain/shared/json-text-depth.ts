// How deep JSON text nests, read from the text itself before it is parsed. V8's JSON.parse spends
// time in proportion to the nesting (about 0.8 µs a level: 380 ms for a body of 500,000 brackets,
// under the 1 MiB limit), all of it on the one thread every tenant's requests share, and only then
// could findUnstorableValues (storable-json.ts) refuse the result (security try, session 27: four
// such requests in a loop slowed another tenant's reads from 2 ms to 2 s). A scan stops at the
// first container too deep, so a refusal costs what the text up to it costs.
import { MAX_JSON_DEPTH } from './storable-json.js';

interface Frame {
  array: boolean;
  /** An array's index of the item being read. */
  index: number;
  /** An object's key being read, as the raw JSON string token (quotes and escapes). */
  key: string | undefined;
}

/**
 * The path to the first container in `text` that is nested `maxDepth` or more containers deep
 * (the root is at depth 0), as findUnstorableValues would report it on the parsed value; undefined
 * when there is none. Text that is not JSON is left to the parser: the scan only follows brackets,
 * commas, colons and strings, and a key it cannot decode ends the scan without a finding.
 */
export function firstTooDeepPath(text: string, maxDepth = MAX_JSON_DEPTH): (string | number)[] | undefined {
  const stack: Frame[] = [];
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
      const top = stack[stack.length - 1];
      if (top && !top.array) top.key = lastString;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (stack.length >= maxDepth) return pathOf(stack);
      stack.push({ array: c === 0x5b, index: 0, key: undefined });
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      stack.pop();
    }
  }
  return undefined;
}

function pathOf(stack: Frame[]): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  for (const frame of stack) {
    if (frame.array) path.push(frame.index);
    else {
      if (frame.key === undefined) return undefined;
      try {
        path.push(JSON.parse(frame.key) as string);
      } catch {
        return undefined;
      }
    }
  }
  return path;
}
