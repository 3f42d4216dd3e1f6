// Rows as one `json` parameter, with the columns that hold JSON text (the event feed's envelopes and
// folded states) spliced in verbatim instead of escaped as strings. `json_populate_recordset` over a
// `json` (not `jsonb`) value gives a text column an object's or array's own text, byte for byte
// (PostgreSQL keeps a json value's text; jsonb would rewrite it), so a stored envelope stays the
// signed bytes (test/event-feed/webhooks-parity.test.ts holds that). Node no longer escapes the quotes
// of every envelope and state, and PostgreSQL no longer unescapes them. Only for text that is JSON: a
// text that is not (a list row's stored text, with its raw slot characters) would break the whole
// parameter.

/** A JSON array of the rows; `verbatim` columns hold JSON text that goes in as it is. */
export function jsonRowsText<R extends { [K in keyof R]: string | number | null }>(
  rows: readonly R[],
  verbatim: ReadonlyArray<keyof R>,
): string {
  const parts: string[] = [];
  for (const row of rows) {
    const fields: string[] = [];
    for (const key in row) {
      const value = row[key];
      fields.push(`${JSON.stringify(key)}:${verbatim.includes(key) && isContainerText(value) ? value : JSON.stringify(value)}`);
    }
    parts.push(`{${fields.join(',')}}`);
  }
  return `[${parts.join(',')}]`;
}

// Only an object's or array's text is taken as it is: a JSON string or scalar would be read back
// unescaped or as SQL null, so any other text is sent as a string, as before. So is a text holding
// an escaped NUL or a lone surrogate (`\u0000`, `\ud800`): PostgreSQL de-escapes the strings of a
// json parameter and refuses those (22P05, 22P02), where inside an escaped string they were stored
// as they are. JSON.stringify writes a valid pair as the character itself, never as `\ud83d…`.
const UNSTORABLE_ESCAPE = /\\u(0000|d[89a-f])/i;
const isContainerText = (value: unknown): value is string =>
  typeof value === 'string' && (value.startsWith('{') || value.startsWith('[')) && !UNSTORABLE_ESCAPE.test(value);
