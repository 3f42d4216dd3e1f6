// Two validators: request bodies are checked strictly (a string is never coerced into a number,
// unknown fields are errors, not silently dropped), while path and query values, which arrive as
// text, are coerced to their declared types.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import { createRequire } from 'node:module';
import type { FastifySchemaCompiler } from 'fastify';
import { findUnstorableValues } from '../domain/shared/storable-json.js';
import { isDate } from '../domain/shared/dates.js';
import { isUuid } from '../../projections/document-queries.js';

// ajv-formats is CommonJS; under ESM interop its default export arrives wrapped, so it is required
// as CommonJS (module.exports is the plugin function itself).
const addFormats: (ajv: Ajv) => Ajv = createRequire(import.meta.url)('ajv-formats');

const base: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false, keywords: ['kind', 'modifier'] };

/**
 * `date` and `date-time` as the database and the code can hold them. ajv-formats checks RFC 3339,
 * which allows years 0000-0099, offsets up to ±23:59 or of hours alone, leap seconds and fractions of
 * any length. PostgreSQL refuses year 0, offsets past ±15:59 and long fractions (22008, 22007), and
 * JavaScript's Date cannot read a leap second or an hours-only offset (an as-of read then answered
 * the current state): such a value passed validation and failed later, as a 500 or silently (an
 * outside probe and a review, session 13). Dates are the domain's (isDate: a real calendar date,
 * years 0100-9999, as every body date already was); date-times keep ajv-formats' check and add these.
 */
function withStorableDates(ajv: Ajv): Ajv {
  const rfc3339 = ajv.formats['date-time'] as { validate: (value: string) => boolean };
  ajv.addFormat('date', { type: 'string', validate: isDate });
  ajv.addFormat('date-time', { type: 'string', validate: (value: string) => rfc3339.validate(value) && isStorableDateTime(value) });
  return ajv;
}

/**
 * `x-lowercase: true` (every UUID in the request schemas: common.ts's Uuid) writes the value back
 * lower-case. UUIDs are case-insensitive on input (RFC 9562), but one kept as sent was stored, put
 * in webhooks and the feed, and compared as text in that case: a reference sent upper-case escaped
 * the "still in use" counts (session 16's outside probe). Canonical at the door, every write path
 * stores one spelling. It changes the case and nothing else. With allErrors it also runs on a value
 * that failed its format, which is refused all the same, and no error message quotes a value.
 */
function withLowercasing(ajv: Ajv): Ajv {
  // ajv-formats' `uuid` also takes a `urn:uuid:` prefix, which PostgreSQL's uuid type refuses: a
  // filter or path so spelt failed at a `::uuid` cast, a 500. One spelling: 8-4-4-4-12 hex digits.
  ajv.addFormat('uuid', { type: 'string', validate: isUuid });
  ajv.addKeyword({
    keyword: 'x-lowercase',
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    validate: (
      on: boolean,
      data: string,
      _schema: unknown,
      cxt?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
    ) => {
      // Only UUID-shaped text: lower-casing other text (a reference field takes any) could change its length.
      if (on && cxt?.parentData != null && isUuid(data)) cxt.parentData[cxt.parentDataProperty] = data.toLowerCase();
      return true;
    },
  });
  return ajv;
}

const OFFSET = /([+-])(\d{2})(?::?(\d{2}))?$/;
const FRACTION = /\.(\d+)/;

/** An RFC 3339 date-time with isDate's date, that Date can read, a fraction of at most 9 digits and an offset within ±15:59. */
function isStorableDateTime(value: string): boolean {
  if (!isDate(value.slice(0, 10)) || !Number.isFinite(Date.parse(value))) return false;
  if ((FRACTION.exec(value)?.[1]?.length ?? 0) > 9) return false;
  const offset = OFFSET.exec(value);
  return offset === null || Number(offset[2]) <= 15;
}

const strictAjv = withLowercasing(withStorableDates(addFormats(new Ajv({ ...base, coerceTypes: false }))));
const coercingAjv = withLowercasing(withStorableDates(addFormats(new Ajv({ ...base, coerceTypes: 'array' }))));

/**
 * Shared (named) schemas must be known to both validators as well as to Fastify (which puts them
 * in the OpenAPI document). Schemas are immutable per $id, so a second app in the same process
 * (tests) reuses the first registration.
 */
export function addSharedSchema(
  app: { addSchema(schema: unknown): unknown; getSchema(id: string): unknown },
  schema: { $id?: string },
): void {
  const id = schema.$id;
  if (!id) throw new Error('a shared schema needs an $id');
  if (!app.getSchema(id)) app.addSchema(schema);
  // Not ajv.getSchema(id): it compiles the schema to answer, and most shared schemas describe
  // responses, which no validator ever compiles (about 1 s of CPU per process). `refs` also holds the
  // ids nested in schemas added before (a shared schema embedded in another one).
  for (const ajv of [strictAjv, coercingAjv]) if (!ajv.schemas[id] && !ajv.refs[id]) ajv.addSchema(schema as object, id);
}

/** An issue in Ajv's shape, so problem.ts keys it by field like every other validation error. */
interface Issue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

const pointer = (path: (string | number)[]): string =>
  path.map((seg) => `/${String(seg).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * Every request part that has a schema (body, query, path parameters, headers) is first searched
 * for values no storage can hold (NUL, lone surrogates, non-finite numbers, absurd nesting; see
 * storable-json.ts), whatever its schema says about them: a free-form field such as an employee's
 * customFields, or a property name, is covered too. They are reported with the schema's own
 * findings in one 400, instead of reaching PostgreSQL and failing as a 500.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajvValidate = (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object);
  const check = (data: unknown): boolean => {
    const unstorable: Issue[] = findUnstorableValues(data).map((u) => ({
      instancePath: pointer(u.path),
      schemaPath: '#/storable',
      keyword: 'storable',
      params: {},
      message: u.message,
    }));
    // A value nested too deep is not handed to Ajv: its (recursive) checks are what the limit protects.
    const tooDeep = unstorable.some((i) => i.message.startsWith('Nested too deeply'));
    const ok = tooDeep ? false : ajvValidate(data);
    const schemaIssues = ok || tooDeep ? [] : (ajvValidate.errors ?? []);
    validate.errors = [...unstorable, ...schemaIssues];
    return ok === true && unstorable.length === 0;
  };
  // Fastify reads the issues of the last call from the function's `errors`, as Ajv's own validators do.
  const errors: (Issue | ErrorObject)[] = [];
  const validate = Object.assign(check, { errors });
  return validate;
};
