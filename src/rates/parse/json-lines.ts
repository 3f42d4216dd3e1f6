// JSON.parse says neither where a syntax error is (Node 20 often gives no position) nor on which
// line an array element starts. This small scanner does both, so the HNB parser can name lines.

export type JsonArrayScan =
  { readonly ok: true; readonly elementLines: readonly number[] } | { readonly ok: false; readonly line: number; readonly message: string };

class Stop extends Error {}

export function scanJsonArray(text: string): JsonArrayScan {
  let pos = 0;
  let line = 1;
  let failure: { line: number; message: string } | undefined;
  const elementLines: number[] = [];

  const fail = (message: string): never => {
    failure = { line, message };
    throw new Stop();
  };
  const describe = (): string => (pos >= text.length ? 'the end of the text' : `"${text[pos]}"`);
  const skipWs = (): void => {
    while (pos < text.length) {
      const c = text[pos];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') return;
      pos++;
    }
  };
  const expect = (c: string): void => {
    if (text[pos] !== c) fail(`expected "${c}" but found ${describe()}`);
    pos++;
  };
  const string = (): void => {
    expect('"');
    while (pos < text.length) {
      const c = text[pos++];
      if (c === '"') return;
      if (c === '\n') fail('line break inside a string');
      if (c === '\\') {
        const e = text[pos++];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos, pos + 4))) fail('bad \\u escape in a string');
          pos += 4;
        } else if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('bad escape in a string');
      }
    }
    fail('unterminated string');
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(pos, pos + 400));
    if (!m) fail(`expected a value but found ${describe()}`);
    pos += m![0].length;
  };
  const value = (): void => {
    skipWs();
    const c = text[pos];
    if (c === '{') object();
    else if (c === '[') array(false);
    else if (c === '"') string();
    else if (text.startsWith('true', pos)) pos += 4;
    else if (text.startsWith('false', pos)) pos += 5;
    else if (text.startsWith('null', pos)) pos += 4;
    else number();
  };
  const object = (): void => {
    expect('{');
    skipWs();
    if (text[pos] === '}') {
      pos++;
      return;
    }
    for (;;) {
      skipWs();
      string();
      skipWs();
      expect(':');
      value();
      skipWs();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '}') {
        pos++;
        return;
      }
      fail(`expected "," or "}" but found ${describe()}`);
    }
  };
  function array(top: boolean): void {
    expect('[');
    skipWs();
    if (text[pos] === ']') {
      pos++;
      return;
    }
    for (;;) {
      skipWs();
      if (top) elementLines.push(line);
      value();
      skipWs();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === ']') {
        pos++;
        return;
      }
      fail(`expected "," or "]" but found ${describe()}`);
    }
  }

  try {
    skipWs();
    if (text[pos] !== '[') fail(`expected a JSON array but found ${describe()}`);
    array(true);
    skipWs();
    if (pos < text.length) fail(`unexpected ${describe()} after the array`);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    return { ok: false, line: failure!.line, message: failure!.message };
  }
  return { ok: true, elementLines };
}
