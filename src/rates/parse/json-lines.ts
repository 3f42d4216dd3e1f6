// JSON.parse says neither where a syntax error is (Node 20 often gives no position) nor on which
// line an array element starts. jsonc-parser (strict JSON: no comments, no trailing commas) gives
// both as offsets; this module turns them into line numbers, so the HNB parser can name lines.
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';

// jsonc-parser's codes are an ambient const enum, which this build cannot read; their names can be.
type ErrorName = ReturnType<typeof printParseErrorCode>;
const nameOf = (error: ParseError): ErrorName => printParseErrorCode(error.error);

export type JsonArrayScan =
  { readonly ok: true; readonly elementLines: readonly number[] } | { readonly ok: false; readonly line: number; readonly message: string };

export function scanJsonArray(text: string): JsonArrayScan {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const start = text.length - text.trimStart().length;
  if (text[start] !== '[') return { ok: false, line: lineOf(start), message: `expected a JSON array but found ${found(text, start)}` };
  const first = errors[0];
  if (first) {
    const stray = nameOf(first) === 'InvalidSymbol' || nameOf(first) === 'EndOfFileExpected';
    const afterArray = stray && tree !== undefined && first.offset >= tree.offset + tree.length;
    const message = afterArray ? `unexpected ${found(text, first.offset)} after the array` : messageOf(first, text);
    return { ok: false, line: lineOf(first.offset), message };
  }
  if (tree?.type !== 'array') return { ok: false, line: lineOf(start), message: `expected a JSON array but found ${found(text, start)}` };
  return { ok: true, elementLines: (tree.children ?? []).map((child) => lineOf(child.offset)) };
}

function found(text: string, offset: number): string {
  return offset >= text.length ? 'the end of the text' : `"${text[offset]}"`;
}

function messageOf(error: ParseError, text: string): string {
  const at = found(text, error.offset);
  switch (nameOf(error)) {
    case 'CommaExpected':
      return `expected "," but found ${at}`;
    case 'CloseBracketExpected':
      return `expected "]" but found ${at}`;
    case 'CloseBraceExpected':
      return `expected "}" but found ${at}`;
    case 'ColonExpected':
      return `expected ":" but found ${at}`;
    case 'ValueExpected':
      return `expected a value but found ${at}`;
    case 'PropertyNameExpected':
      return `expected a property name but found ${at}`;
    case 'UnexpectedEndOfString':
      return 'unterminated string (or a line break inside one)';
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return 'bad escape in a string';
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return 'bad number';
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return 'comments are not JSON';
    default:
      return `unexpected ${at}`;
  }
}
