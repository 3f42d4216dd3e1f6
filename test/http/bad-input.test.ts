// The bad-input battery over real HTTP. Every operation under /api/v1 is read from the live
// OpenAPI document (so a route added later is covered without touching this file) and is sent
// malformed path parameters, bad query values, broken, mistyped, incomplete and oversized JSON
// bodies, no key and a key without its scope. Each answer must be 400, 401, 403, 413 or 415
// application/problem+json with a `code` and a `traceId` (the X-Request-Id), validation answers
// must carry `errors` keyed by the offending field, and nothing may ever be a 5xx.
//
// Decisions the battery pins down:
// - Unknown query parameters are a 400 naming the parameter, on every route, whether or not it
//   declares query parameters (the strict choice; a typo such as `pagesize` is not silently ignored).
// - Path parameters are UUIDs; anything else is a 400 naming the parameter, before any lookup (never
//   a 404). A segment too long for the router, or one that is not valid percent-encoding, is a 400
//   naming `path`, since the router cannot tell which parameter it was.
// - A text/plain body is a 415 on every route that takes a JSON body; malformed JSON and a body over
//   1 MB are refused (400, 413) on every route that takes no upload, whether or not it reads a body.
// - A malformed Idempotency-Key is a 400 naming the header on every POST.
// - Text no storage can hold is a 400 keyed by the field, wherever it is: U+0000 and a lone surrogate
//   (both legal in JSON, refused by PostgreSQL) in every string field of every body, nested ones and
//   array items included, in a property name, and in query parameters; a number JSON.parse makes
//   Infinity (1e400) too. Huge finite numbers and absurdly deep nesting are never a 5xx.
// - A field or query parameter named `constructor`, `toString` or `hasOwnProperty` is an unknown name
//   (400 naming it), and a `__proto__` key a 400 naming it, on every route.
// - `content-type: application/json` with an empty body, on an operation that takes no body or an
//   optional one, is no body: the answer is the one the same request without a body gets (not 400
//   MALFORMED_JSON); on an optional body, so is `null`.
// - Upload (multipart or other non-JSON) operations are sent a small valid upload and get the path,
//   query, key, Idempotency-Key and media-type (JSON instead of the upload: 415) checks, not the
//   JSON-body and 1 MB checks (uploads have their own limits); the comment printed at the end lists them.
import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestApp, type RequestOptions, type TestApp, type TestResponse } from '../helpers/app.js';

type Json = Record<string, any>;
type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';
/** Names every plain object inherits: a client may send them as field or parameter names. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty'];
const ALL_TYPES: JsonType[] = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];

interface Operation {
  method: string;
  path: string;
  label: string;
  pathParams: string[];
  queryParams: { name: string; schema: Json }[];
  /** The JSON request-body schema, when the operation takes one. */
  jsonBody?: Json;
  bodyRequired: boolean;
  /** Content types of a non-JSON request body (an upload), and the schema of the first. */
  uploadTypes: string[];
  uploadSchema?: Json;
}

interface Expectation {
  status: number[];
  /** The key `errors` must carry. */
  field?: string;
  code?: string;
}

interface Outcome {
  label: string;
  caseName: string;
  status: number;
  body: string;
}

const BODY_LIMIT = 1024 * 1024;
/** The PNG signature and an IHDR chunk: enough for content sniffing. */
const TINY_PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const BAD_PATH_VALUES: [string, string][] = [
  ['not-a-uuid', 'not-a-uuid'],
  ['digits', '123'],
  ['300 characters', 'a'.repeat(300)],
  ['NUL (%00)', '%00'],
  ['SQL-ish', encodeURIComponent("1' or '1'='1")],
  ['UUID with a suffix', `${randomUUID()}-0`],
];
/** Values the router itself refuses; it cannot know the parameter, so `errors` names `path`. */
const UNROUTABLE_PATH_VALUES: [string, string][] = [
  ['5,000 characters', 'b'.repeat(5000)],
  ['broken percent-encoding', '%zz'],
];

// ---------------------------------------------------------------------------------------------
// Reading the OpenAPI document

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let hops = 0; s && typeof s.$ref === 'string'; hops++) {
    if (hops > 20 || !s.$ref.startsWith('#/')) throw new Error(`cannot resolve ${s.$ref}`);
    s = s.$ref
      .slice(2)
      .split('/')
      .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((o: Json | undefined, k: string) => o?.[k], doc);
  }
  return s;
}

function operationsOf(doc: Json): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (!path.startsWith('/api/v1')) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const params: Json[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(doc, p)!);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const declared = params.filter((p) => p.in === 'path').map((p) => p.name as string);
      if (templated.some((n) => !declared.includes(n)))
        throw new Error(`${method.toUpperCase()} ${path}: a path parameter is not declared`);
      const content: Json = resolve(doc, op.requestBody)?.content ?? {};
      const jsonType = Object.keys(content).find((ct) => /^application\/(.+\+)?json$/.test(ct));
      ops.push({
        method: method.toUpperCase(),
        path,
        label: `${method.toUpperCase()} ${path}`,
        pathParams: templated,
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: resolve(doc, p.schema) ?? {} })),
        jsonBody: jsonType ? resolve(doc, content[jsonType].schema) : undefined,
        bodyRequired: Boolean(resolve(doc, op.requestBody)?.required),
        uploadTypes: Object.keys(content).filter((ct) => ct !== jsonType),
        uploadSchema: Object.entries<Json>(content).find(([ct]) => ct !== jsonType)?.[1].schema,
      });
    }
  }
  return ops;
}

/** The JSON types a schema accepts (anyOf/oneOf are unions; no constraint accepts everything). */
function acceptedTypes(doc: Json, schema: Json | undefined): Set<JsonType> {
  const s = resolve(doc, schema);
  if (!s) return new Set(ALL_TYPES);
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) return new Set(branches.flatMap((b: Json) => [...acceptedTypes(doc, b)]));
  if (s.type !== undefined) {
    const types = new Set<JsonType>(Array.isArray(s.type) ? s.type : [s.type]);
    if (types.has('number')) types.add('integer');
    return types;
  }
  if (Array.isArray(s.enum))
    return new Set(s.enum.map((v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v) as JsonType));
  return new Set(ALL_TYPES);
}

const WRONG_TYPE_CANDIDATES: [JsonType, unknown][] = [
  ['integer', 12345],
  ['boolean', true],
  ['string', 'a string, not the declared type'],
  ['object', { nested: 1 }],
  ['array', [1]],
];

function wrongTypeValue(doc: Json, schema: Json | undefined): { value: unknown } | undefined {
  const ok = acceptedTypes(doc, schema);
  const found = WRONG_TYPE_CANDIDATES.find(([type]) => !ok.has(type));
  return found ? { value: found[1] } : undefined;
}

const FORMAT_SAMPLES: Record<string, () => string> = {
  uuid: () => randomUUID(),
  date: () => '2025-04-14',
  'date-time': () => '2025-04-14T08:00:00Z',
  email: () => 'someone@example.com',
  uri: () => 'https://example.com/',
  hostname: () => 'example.com',
  ipv4: () => '192.0.2.1',
};
const PATTERN_SAMPLES = ['EUR', 'HR', 'abc', '1', '2025-00001', 'evt_00000000000000000000000000000000', 'x'];

/** A value of the right shape and format (it need not make sense: the battery only breaks it). */
function sample(doc: Json, schema: Json | undefined, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (!s || depth > 8) return null;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const pick = branches.find((b: Json) => !acceptedTypes(doc, b).has('null') || acceptedTypes(doc, b).size > 1) ?? branches[0];
    return sample(doc, pick, depth + 1);
  }
  const type: JsonType | undefined = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  switch (type) {
    case 'string': {
      if (s.format && FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format]!();
      if (s.pattern) return PATTERN_SAMPLES.find((c) => new RegExp(s.pattern).test(c)) ?? 'x';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return s.maximum !== undefined ? Math.min(min, s.maximum) : min;
    }
    case 'boolean':
      return false;
    case 'array': {
      const items = resolve(doc, s.items);
      return Array.from({ length: s.minItems ?? 0 }, (_, i) =>
        Array.isArray(items?.enum) ? items!.enum[i % items!.enum.length] : sample(doc, items, depth + 1),
      );
    }
    case 'object': {
      const out: Json = {};
      for (const name of s.required ?? []) out[name] = sample(doc, s.properties?.[name], depth + 1);
      return out;
    }
    default:
      return null;
  }
}

/** A step into a JSON value: a property name, or the first item of an array. */
type Step = { prop: string } | { item: true };
interface FieldPath {
  steps: Step[];
  schema: Json;
}

/** The object or array branch of a (possibly nullable) schema, if it has one. */
function containerOf(doc: Json, schema: Json | undefined): Json | undefined {
  const s = resolve(doc, schema);
  if (!s) return undefined;
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) return branches.map((b: Json) => containerOf(doc, b)).find((b: Json | undefined) => b !== undefined);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.includes('object') || types.includes('array') ? s : undefined;
}

/**
 * Every declared field of a body schema, nested objects and the first item of arrays included
 * (`expenses[0].description`), each with its schema; free-form maps (additionalProperties with a
 * schema, e.g. customFields) are listed as themselves, for the property-name cases.
 */
function fieldPaths(doc: Json, schema: Json | undefined, steps: Step[] = [], depth = 0): FieldPath[] {
  const s = containerOf(doc, schema);
  if (!s || depth > 4) return [];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('array')) return fieldPaths(doc, s.items, [...steps, { item: true }], depth + 1);
  const out: FieldPath[] = [];
  for (const [name, prop] of Object.entries<Json>(s.properties ?? {})) {
    const here = [...steps, { prop: name }];
    out.push({ steps: here, schema: prop });
    out.push(...fieldPaths(doc, prop, here, depth + 1));
  }
  return out;
}

/** `expenses[0].description`, the key style of the API's `errors`. */
const fieldName = (steps: Step[]): string =>
  steps
    .map((st) => ('prop' in st ? `.${st.prop}` : '[0]'))
    .join('')
    .replace(/^\./, '');

/** The sample body with `value` placed at `steps`, the containers on the way filled with samples. */
function bodyWith(doc: Json, rootSchema: Json, base: unknown, steps: Step[], value: unknown): unknown {
  const root = structuredClone(base) ?? {};
  let holder: any = root;
  let schema: Json | undefined = containerOf(doc, rootSchema);
  steps.forEach((st, i) => {
    const last = i === steps.length - 1;
    const key: string | number = 'prop' in st ? st.prop : 0;
    const childSchema = 'prop' in st ? schema?.properties?.[st.prop] : schema?.items;
    if (last) holder[key] = value;
    else {
      const container = containerOf(doc, childSchema);
      const isArray = container && (Array.isArray(container.type) ? container.type.includes('array') : container.type === 'array');
      if (holder[key] === null || typeof holder[key] !== 'object') holder[key] = isArray ? [] : (sample(doc, container) ?? {});
      if (isArray && (holder[key][0] === null || typeof holder[key][0] !== 'object'))
        holder[key][0] = sample(doc, containerOf(doc, container!.items)) ?? {};
      holder = holder[key];
      schema = container;
    }
  });
  return root;
}

/** Strings no storage can hold: PostgreSQL refuses U+0000, and a lone surrogate has no UTF-8 form. */
const UNSTORABLE_STRINGS: [string, string][] = [
  ['NUL', '\u0000'],
  ['NUL inside text', 'Ana\u0000Horvat'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', 'x\udc00'],
];

/** Bad values for one query parameter, each a 400 naming it. */
function badQueryValues(doc: Json, schema: Json): [string, string][] {
  const s = resolve(doc, schema) ?? {};
  const out: [string, string][] = [];
  const types = acceptedTypes(doc, s);
  if (types.has('integer') || types.has('number')) {
    out.push(['not a number', 'abc']);
    if (!types.has('number')) out.push(['not an integer', '1.5']);
    if (typeof s.minimum === 'number') out.push(['below the minimum', String(s.minimum - 1)]);
    if (typeof s.maximum === 'number') out.push(['above the maximum', String(s.maximum + 1)]);
  }
  if (types.has('boolean') && types.size === 1) out.push(['not a boolean', 'maybe']);
  if (Array.isArray(s.enum)) out.push(['unknown enum value', 'NotAKnownValue']);
  if (types.has('string') && !Array.isArray(s.enum)) {
    if (s.format === 'uuid') out.push(['not a uuid', 'not-a-uuid']);
    // Dates of the right shape that PostgreSQL refuses (year 0, an offset past ±15:59) are client
    // mistakes too, never a 500 from the query.
    else if (s.format === 'date') out.push(['not a date', '2025-13-45'], ['year 0', '0000-01-01']);
    else if (s.format === 'date-time')
      out.push(
        ['not a date-time', 'yesterday'],
        ['year 0', '0000-01-01T00:00:00Z'],
        ['an offset past 15:59', '2026-01-01T10:00:00-23:59'],
        ['an offset of hours alone', '2026-01-01T10:00:00+23'],
        ['a fraction of 200 digits', `2026-01-01T10:00:00.${'1'.repeat(200)}Z`],
        ['a leap second', '2016-12-31T23:59:60Z'],
      );
    else if (s.format) out.push([`not a ${s.format}`, '%%not-valid%%']);
    if (s.pattern) {
      const re = new RegExp(s.pattern);
      const bad = ['!!', '1234', 'toolongvalue', ' '].find((c) => !re.test(c));
      if (bad !== undefined) out.push(['not matching the pattern', bad]);
    }
    if (typeof s.maxLength === 'number') out.push(['too long', 'x'.repeat(s.maxLength + 1)]);
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push(['too short', '']);
  }
  if (out.length === 0) throw new Error(`no bad value known for query schema ${JSON.stringify(s)}: extend badQueryValues`);
  return out.map(([name, value]) => [name, encodeURIComponent(value)]);
}

// ---------------------------------------------------------------------------------------------
// Checking answers

function problemIssues(res: TestResponse, expect: Expectation): string[] {
  const issues: string[] = [];
  if (res.status >= 500) issues.push(`server error ${res.status} for a client mistake`);
  if (!expect.status.includes(res.status)) issues.push(`status ${res.status}, expected ${expect.status.join(' or ')}`);
  const type = res.headers.get('content-type') ?? '';
  if (!/^application\/problem\+json/.test(type)) issues.push(`content-type "${type}", expected application/problem+json`);
  const body = res.body as Json;
  if (typeof body !== 'object' || body === null) return [...issues, 'the body is not a JSON object'];
  if (body.status !== res.status) issues.push(`body.status ${body.status} differs from the HTTP status`);
  if (typeof body.code !== 'string' || body.code === '') issues.push('no `code`');
  else if (expect.code && body.code !== expect.code) issues.push(`code ${body.code}, expected ${expect.code}`);
  if (typeof body.traceId !== 'string' || body.traceId === '') issues.push('no `traceId`');
  else if (body.traceId !== res.headers.get('x-request-id'))
    issues.push(`traceId ${body.traceId} is not the X-Request-Id ${res.headers.get('x-request-id')}`);
  if (expect.field !== undefined) {
    const messages = body.errors?.[expect.field];
    if (!Array.isArray(messages) || messages.length === 0 || messages.some((m: unknown) => typeof m !== 'string')) {
      issues.push(
        `\`errors\` does not name "${expect.field}" (keys: ${body.errors ? Object.keys(body.errors).join(', ') || 'none' : 'no errors object'})`,
      );
    }
  }
  return issues;
}

t.test('bad input on every /api/v1 route', async (t) => {
  const app: TestApp = await startTestApp(t);
  const docRes = await app.request('GET', '/api-reference/openapi.json', { key: null });
  t.equal(docRes.status, 200, 'the OpenAPI document is served');
  const doc = docRes.body as Json;
  const ops = operationsOf(doc);
  t.ok(ops.length >= 30, `the document lists the partner routes (${ops.length} operations)`);

  const auditOnly = await app.newTenant({ scopes: ['audit'] });
  const noScopes = await app.newTenant({ scopes: [] });

  const failures: Outcome[] = [];
  const serverErrors: Outcome[] = [];
  const counts = new Map<string, number>();
  const notes: string[] = [];

  const send = async (
    tt: Test,
    op: Operation,
    caseName: string,
    path: string,
    opts: RequestOptions,
    expect: Expectation,
  ): Promise<TestResponse> => {
    counts.set(op.label, (counts.get(op.label) ?? 0) + 1);
    let res: TestResponse;
    try {
      res = await app.request(op.method, path, opts);
    } catch (err) {
      // The server dropped the connection (or sent unparseable JSON): as bad as a 5xx.
      const outcome = { label: op.label, caseName, status: 0, body: String(err) };
      serverErrors.push(outcome);
      failures.push(outcome);
      tt.fail(`${op.label} — ${caseName}: request failed: ${String(err)}`, { path });
      return { status: 0, headers: new Headers(), body: undefined, text: '' };
    }
    const issues = problemIssues(res, expect);
    const outcome = { label: op.label, caseName, status: res.status, body: res.text.slice(0, 600) };
    if (res.status >= 500) serverErrors.push(outcome);
    if (issues.length > 0) {
      failures.push(outcome);
      tt.fail(`${op.label} — ${caseName}: ${issues.join('; ')}`, {
        path: path.length > 200 ? `${path.slice(0, 200)}…` : path,
        status: res.status,
        body: outcome.body,
      });
    } else tt.pass(`${op.label} — ${caseName}: ${res.status} ${(res.body as Json).code}`);
    return res;
  };

  /** For inputs the API may accept or refuse (a huge but finite number): never a 5xx, a refusal a problem. */
  const sendNo5xx = async (tt: Test, op: Operation, caseName: string, path: string, opts: RequestOptions): Promise<TestResponse> => {
    counts.set(op.label, (counts.get(op.label) ?? 0) + 1);
    const res = await app.request(op.method, path, opts);
    const outcome = { label: op.label, caseName, status: res.status, body: res.text.slice(0, 600) };
    if (res.status >= 500) serverErrors.push(outcome);
    const issues = res.status >= 400 ? problemIssues(res, { status: [res.status < 500 ? res.status : 400] }) : [];
    if (issues.length > 0) {
      failures.push(outcome);
      tt.fail(`${op.label} — ${caseName}: ${issues.join('; ')}`, { status: res.status, body: outcome.body });
    } else tt.pass(`${op.label} — ${caseName}: ${res.status}`);
    return res;
  };

  const fillPath = (op: Operation, bad?: { param: string; value: string }) =>
    op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (bad && bad.param === name ? bad.value : randomUUID()));
  const jsonOpts = (body: unknown): RequestOptions => ({ rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  /** A small, acceptable upload, so that an upload route's other checks are not pre-empted by a 415. */
  const uploadOpts = (op: Operation): RequestOptions => {
    if (op.uploadTypes.includes('multipart/form-data')) {
      const boundary = `----travelog-bad-input-${randomUUID()}`;
      const form = resolve(doc, op.uploadSchema);
      const field = Object.keys(form?.properties ?? {})[0] ?? 'file';
      const rawBody = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="receipt.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        TINY_PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { rawBody, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    }
    return { rawBody: TINY_PNG, headers: { 'content-type': op.uploadTypes[0]! } };
  };
  const bodyCapable = (op: Operation) => op.method !== 'GET';
  const scopes = new Map<string, string>();

  // Operations run a few at a time; each one's cases run in order.
  t.jobs = 4;
  const runs = ops.map((op) =>
    t.test(op.label, async (tt) => {
      const sampleBody = op.jsonBody ? sample(doc, op.jsonBody) : undefined;
      const withBody: RequestOptions = op.jsonBody ? jsonOpts(sampleBody) : op.uploadTypes.length > 0 ? uploadOpts(op) : {};

      // A well-formed request (random ids, a sample body) may be refused, but never with a 5xx,
      // and a refusal is a problem document.
      {
        counts.set(op.label, (counts.get(op.label) ?? 0) + 1);
        const res = await app.request(op.method, fillPath(op), withBody);
        const outcome = { label: op.label, caseName: 'well-formed baseline', status: res.status, body: res.text.slice(0, 600) };
        if (res.status >= 500) serverErrors.push(outcome);
        const issues = res.status >= 400 ? problemIssues(res, { status: [res.status < 500 ? res.status : 400] }) : [];
        if (issues.length > 0) {
          failures.push(outcome);
          tt.fail(`${op.label} — well-formed baseline: ${issues.join('; ')}`, { status: res.status, body: outcome.body });
        } else tt.pass(`${op.label} — well-formed baseline: ${res.status}`);
      }

      // Keys: none, a malformed one, one with no scopes (tells the route's scope), one with only `audit`.
      await send(tt, op, 'no API key', fillPath(op), { ...withBody, key: null }, { status: [401], code: 'UNAUTHENTICATED' });
      await send(
        tt,
        op,
        'an invalid API key',
        fillPath(op),
        { ...withBody, key: 'tvl_nonsense' },
        { status: [401], code: 'UNAUTHENTICATED' },
      );
      const scopeless = await send(
        tt,
        op,
        'a key without scopes',
        fillPath(op),
        { ...withBody, key: noScopes.key },
        { status: [403], code: 'INSUFFICIENT_SCOPE' },
      );
      const scope = (scopeless.body as Json | undefined)?.requiredScope;
      tt.type(scope, 'string', `${op.label}: the 403 names the required scope`);
      scopes.set(op.label, String(scope));
      if (scope === 'audit') notes.push(`${op.label}: scope audit, so the audit-only key check does not apply`);
      else
        await send(
          tt,
          op,
          "a key with only the 'audit' scope",
          fillPath(op),
          { ...withBody, key: auditOnly.key },
          { status: [403], code: 'INSUFFICIENT_SCOPE' },
        );

      // Path parameters: not UUIDs.
      for (const param of op.pathParams) {
        for (const [name, value] of BAD_PATH_VALUES) {
          await send(tt, op, `path ${param}: ${name}`, fillPath(op, { param, value }), withBody, {
            status: [400],
            field: param,
            code: 'VALIDATION_FAILED',
          });
        }
        await send(tt, op, `path ${param}: a lone surrogate (%ED%A0%80)`, fillPath(op, { param, value: '%ED%A0%80' }), withBody, {
          status: [400],
        });
        for (const [name, value] of UNROUTABLE_PATH_VALUES) {
          await send(tt, op, `path ${param}: ${name}`, fillPath(op, { param, value }), withBody, { status: [400], field: 'path' });
        }
      }

      // Query parameters: wrong type, out of range, unknown enum value, repeated; and an unknown one.
      for (const q of op.queryParams) {
        for (const [name, value] of badQueryValues(doc, q.schema)) {
          await send(tt, op, `query ${q.name}: ${name}`, `${fillPath(op)}?${q.name}=${value}`, withBody, {
            status: [400],
            field: q.name,
            code: 'VALIDATION_FAILED',
          });
        }
        const types = acceptedTypes(doc, q.schema);
        if (types.has('string')) {
          for (const [name, value] of UNSTORABLE_STRINGS.filter(([, v]) => !/[\ud800-\udfff]/.test(v))) {
            await send(tt, op, `query ${q.name}: ${name}`, `${fillPath(op)}?${q.name}=${encodeURIComponent(value)}`, withBody, {
              status: [400],
              field: q.name,
              code: 'VALIDATION_FAILED',
            });
          }
          // A URL carries UTF-8, which has no form for a lone surrogate; its CESU-8 bytes are not
          // UTF-8 and are read leniently (not as a surrogate), so any answer but a 5xx will do.
          await sendNo5xx(
            tt,
            op,
            `query ${q.name}: a surrogate's CESU-8 bytes (%ED%A0%80)`,
            `${fillPath(op)}?${q.name}=%ED%A0%80`,
            withBody,
          );
        }
        if (!types.has('array')) {
          const one = encodeURIComponent(String(sample(doc, q.schema)));
          await send(tt, op, `query ${q.name}: repeated`, `${fillPath(op)}?${q.name}=${one}&${q.name}=${one}`, withBody, {
            status: [400],
            field: q.name,
            code: 'VALIDATION_FAILED',
          });
        }
      }
      await send(tt, op, 'unknown query parameter', `${fillPath(op)}?unknownParam=1`, withBody, {
        status: [400],
        field: 'unknownParam',
        code: 'VALIDATION_FAILED',
      });
      // Names that are members of Object.prototype are ordinary unknown names (session 21: `constructor`
      // as a body field answered 500), in the query as in bodies below.
      for (const name of PROTOTYPE_NAMES) {
        await send(tt, op, `query parameter named ${name}`, `${fillPath(op)}?${name}=1`, withBody, {
          status: [400],
          field: name,
          code: 'VALIDATION_FAILED',
        });
      }

      // Idempotency-Key is honoured on every POST; a malformed one is refused, naming the header.
      if (op.method === 'POST') {
        for (const [name, value] of [
          ['with a space', 'two words'],
          ['256 characters', 'k'.repeat(256)],
          ['a non-ASCII byte', 'key-\u00ff'],
        ] as const) {
          await send(
            tt,
            op,
            `Idempotency-Key ${name}`,
            fillPath(op),
            { ...withBody, headers: { ...withBody.headers, 'idempotency-key': value } },
            { status: [400], field: 'Idempotency-Key', code: 'VALIDATION_FAILED' },
          );
        }
      }

      // If-Match reaches the write path on every operation that changes a resource.
      if (op.method !== 'GET') {
        await sendNo5xx(tt, op, 'If-Match with a non-ASCII byte', fillPath(op), {
          ...withBody,
          headers: { ...withBody.headers, 'if-match': '"1\u00ff"' },
        });
      }

      // A bodiless operation sent `content-type: application/json` and no body: that is no body.
      if (bodyCapable(op) && !op.jsonBody && op.uploadTypes.length === 0) {
        const bare = await sendNo5xx(tt, op, 'no body at all (reference)', fillPath(op), {});
        const emptyJson = await sendNo5xx(tt, op, 'an empty body with content-type json', fillPath(op), {
          rawBody: '',
          headers: { 'content-type': 'application/json' },
        });
        tt.equal(emptyJson.status, bare.status, `${op.label}: an empty JSON body is answered like no body`);
        tt.not((emptyJson.body as Json | undefined)?.code, 'MALFORMED_JSON', `${op.label}: an empty JSON body is not malformed JSON`);
      }

      // Bodies on any route that can carry one (uploads excepted): broken JSON, too large.
      if (bodyCapable(op) && op.uploadTypes.length === 0) {
        const json = { 'content-type': 'application/json' };
        await send(
          tt,
          op,
          'malformed JSON',
          fillPath(op),
          { rawBody: '{"a":', headers: json },
          { status: [400], field: 'body', code: 'MALFORMED_JSON' },
        );
        const pad = BODY_LIMIT + 1 - Buffer.byteLength('{"padding":""}');
        const big = `{"padding":"${'x'.repeat(pad)}"}`;
        tt.equal(Buffer.byteLength(big), BODY_LIMIT + 1);
        await send(
          tt,
          op,
          'a body of 1,048,577 bytes',
          fillPath(op),
          { rawBody: big, headers: json },
          { status: [413], field: 'body', code: 'PAYLOAD_TOO_LARGE' },
        );
      }

      // JSON-body operations: the body's shape.
      if (op.jsonBody) {
        const schema = op.jsonBody;
        const json = { 'content-type': 'application/json' };
        const path = fillPath(op);
        await send(
          tt,
          op,
          'a text/plain body',
          path,
          { rawBody: 'firstName=Ana', headers: { 'content-type': 'text/plain' } },
          { status: [415], code: 'UNSUPPORTED_MEDIA_TYPE' },
        );
        await send(
          tt,
          op,
          'a JSON array',
          path,
          { rawBody: '[]', headers: json },
          { status: [400], field: 'body', code: 'VALIDATION_FAILED' },
        );
        await send(
          tt,
          op,
          'a JSON string',
          path,
          { rawBody: '"firstName"', headers: json },
          { status: [400], field: 'body', code: 'VALIDATION_FAILED' },
        );
        if (op.bodyRequired) {
          for (const [what, rawBody, code] of [
            ['JSON null', 'null', 'VALIDATION_FAILED'],
            ['an empty body with content-type json', '', 'MALFORMED_JSON'],
          ] as const) {
            await send(tt, op, what, path, { rawBody, headers: json }, { status: [400], field: 'body', code });
          }
          await send(tt, op, 'no body at all', path, {}, { status: [400], field: 'body', code: 'VALIDATION_FAILED' });
        } else {
          // An optional body (cancel): `null` and an empty JSON body are no body (session 21).
          const bare = await sendNo5xx(tt, op, 'no body at all (optional body, reference)', path, {});
          for (const [what, rawBody] of [
            ['JSON null', 'null'],
            ['an empty body with content-type json', ''],
          ] as const) {
            const res = await sendNo5xx(tt, op, `${what} (optional body)`, path, { rawBody, headers: json });
            tt.equal(res.status, bare.status, `${op.label}: ${what} is answered like no body`);
          }
        }
        if (schema.additionalProperties === false) {
          await send(tt, op, 'an unknown extra field', path, jsonOpts({ ...(sampleBody as Json), unexpectedField: 1 }), {
            status: [400],
            field: 'unexpectedField',
            code: 'VALIDATION_FAILED',
          });
        } else notes.push(`${op.label}: the body schema allows unknown fields`);
        for (const name of (schema.required ?? []) as string[]) {
          const { [name]: _dropped, ...rest } = sampleBody as Json;
          // Webhook subscriptions answer their own codes for url/eventTypes (still 400, keyed by field).
          await send(tt, op, `required field ${name} missing`, path, jsonOpts(rest), { status: [400], field: name });
        }
        for (const [name, propSchema] of Object.entries<Json>(schema.properties ?? {})) {
          const wrong = wrongTypeValue(doc, propSchema);
          if (!wrong) {
            notes.push(`${op.label}: field ${name} accepts every JSON type, so no wrong-type case`);
            continue;
          }
          await send(
            tt,
            op,
            `field ${name}: wrong type (${JSON.stringify(wrong.value)})`,
            path,
            jsonOpts({ ...(sampleBody as Json), [name]: wrong.value }),
            { status: [400], field: name },
          );
        }
        // Text no storage can hold, in every declared string field, nested ones and array items included.
        for (const field of fieldPaths(doc, schema)) {
          const types = acceptedTypes(doc, field.schema);
          const name = fieldName(field.steps);
          if (types.has('string')) {
            // Also inside a value that is otherwise valid (a URL that a lenient parser would clean up).
            const valid = sample(doc, field.schema);
            const inValid: [string, string][] =
              typeof valid === 'string' && valid !== ''
                ? [
                    ['NUL inside a valid value', `${valid}\u0000x`],
                    ['a lone surrogate inside a valid value', `${valid}\ud800x`],
                  ]
                : [];
            for (const [what, value] of [...UNSTORABLE_STRINGS, ...inValid]) {
              // Keyed by the field; the code is the route's own where it has one (webhook url: WEBHOOK_URL_INVALID).
              await send(tt, op, `field ${name}: ${what}`, path, jsonOpts(bodyWith(doc, schema, sampleBody, field.steps, value)), {
                status: [400],
                field: name,
              });
            }
          }
          if (types.has('number') || types.has('integer')) {
            // JSON.parse reads 1e400 as Infinity (JSON.stringify cannot write it: the text is spliced in).
            const marker = '__travelog_huge_number__';
            const raw = JSON.stringify(bodyWith(doc, schema, sampleBody, field.steps, marker)).replace(`"${marker}"`, '1e400');
            await send(
              tt,
              op,
              `field ${name}: 1e400 (Infinity)`,
              path,
              { rawBody: raw, headers: json },
              { status: [400], field: name, code: 'VALIDATION_FAILED' },
            );
            // The last literal is meant to be beyond double precision: the server must not 5xx on it.
            // eslint-disable-next-line no-loss-of-precision
            for (const huge of [1e308, -1e308, 2 ** 63, 12345678901234567890123]) {
              await sendNo5xx(tt, op, `field ${name}: ${huge}`, path, jsonOpts(bodyWith(doc, schema, sampleBody, field.steps, huge)));
            }
          }
          const map = containerOf(doc, field.schema);
          if (map && (map.patternProperties || (typeof map.additionalProperties === 'object' && map.additionalProperties))) {
            for (const key of PROTOTYPE_NAMES) {
              await sendNo5xx(
                tt,
                op,
                `field ${name}: a property named ${key}`,
                path,
                jsonOpts(bodyWith(doc, schema, sampleBody, field.steps, { [key]: 'x' })),
              );
            }
            // A free-form map (e.g. customFields): the property names are text too.
            for (const [what, key] of UNSTORABLE_STRINGS) {
              await send(
                tt,
                op,
                `field ${name}: a property name with ${what}`,
                path,
                jsonOpts(bodyWith(doc, schema, sampleBody, field.steps, { [key]: 'x' })),
                { status: [400], field: name, code: 'VALIDATION_FAILED' },
              );
            }
          }
        }
        // A property name no storage can hold, at the top level (also an unknown field, but never a 5xx).
        const sampleText = JSON.stringify(sampleBody).slice(1, -1);
        await send(
          tt,
          op,
          'a property name with a lone surrogate',
          path,
          { rawBody: `{"\\ud800":1${sampleText ? `,${sampleText}` : ''}}`, headers: json },
          { status: [400], field: 'body', code: 'VALIDATION_FAILED' },
        );
        // Property names that are members of Object.prototype: unknown fields like any other, and
        // `__proto__` (kept by JSON, refused by the parser) named by its path.
        for (const name of PROTOTYPE_NAMES) {
          await send(tt, op, `a property named ${name}`, path, jsonOpts({ ...(sampleBody as Json), [name]: 'x' }), {
            status: [400],
            field: name,
            code: 'VALIDATION_FAILED',
          });
        }
        await send(
          tt,
          op,
          'a property named __proto__',
          path,
          { rawBody: `{"__proto__":{"x":1}${sampleText ? `,${sampleText}` : ''}}`, headers: json },
          { status: [400], field: '__proto__', code: 'VALIDATION_FAILED' },
        );
        // Nesting deeper than anything the API defines, in the first field (an array or object at 100,000 levels).
        const first = Object.keys(schema.properties ?? {})[0] ?? 'x';
        for (const [open, close] of [
          ['[', ']'],
          ['{"a":', '}'],
        ] as const) {
          const deep = `${open.repeat(100_000)}1${close.repeat(100_000)}`;
          const { [first]: _replaced, ...others } = sampleBody as Json;
          const othersText = JSON.stringify(others).slice(1, -1);
          const raw = `{${JSON.stringify(first)}:${deep}${othersText ? `,${othersText}` : ''}}`;
          await send(
            tt,
            op,
            `field ${first}: nested 100,000 levels deep (${open})`,
            path,
            { rawBody: raw, headers: json },
            { status: [400], code: 'VALIDATION_FAILED' },
          );
        }
      } else if (op.uploadTypes.length > 0) {
        await send(tt, op, 'a JSON body instead of an upload', fillPath(op), jsonOpts({ files: [] }), {
          status: [415],
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
        notes.push(
          `${op.label}: upload (${op.uploadTypes.join(', ')}), JSON-body and size checks skipped; path, query, key and media-type checks ran`,
        );
      }
    }),
  );
  await Promise.all(runs);

  t.test('summary', async (tt) => {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const lines = ops.map(
      (op) =>
        `  ${op.label.padEnd(64)} scope ${String(scopes.get(op.label)).padEnd(8)} ${String(counts.get(op.label) ?? 0).padStart(3)} requests` +
        `${op.jsonBody ? ' (JSON body)' : op.uploadTypes.length ? ' (upload)' : ''}`,
    );
    tt.comment(
      [
        `bad-input battery: ${ops.length} operations, ${total} requests`,
        ...lines,
        ...(notes.length ? ['notes:', ...notes.map((n) => `  ${n}`)] : []),
      ].join('\n'),
    );
    for (const op of ops) tt.ok((counts.get(op.label) ?? 0) > 0, `${op.label} was exercised`);
    if (failures.length > 0) {
      tt.comment(
        `FAILURES (${failures.length}):\n${failures.map((f) => `  ${f.label} — ${f.caseName}: ${f.status} ${f.body.slice(0, 300)}`).join('\n')}`,
      );
    }
    tt.same(
      serverErrors.map((e) => `${e.label} — ${e.caseName}: ${e.status} ${e.body.slice(0, 300)}`),
      [],
      'no 5xx anywhere',
    );
    tt.equal(failures.length, 0, 'every bad request got the expected problem');
  });
});
