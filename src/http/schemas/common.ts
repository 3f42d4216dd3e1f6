// Schemas shared by every route group. Named ($id) schemas become OpenAPI components.
import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../../domain/error-codes.js';

/**
 * An enumeration published as an allow-list of canonical strings (`{ type: string, enum: [...] }`),
 * the form code generators turn into enums. Give it an $id to make it a named component.
 */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { $id?: string; description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** Accepted in any case and lower-cased before anything else sees it (validation.ts, `x-lowercase`). */
export const Uuid = Type.String({
  format: 'uuid',
  'x-lowercase': true,
  description: 'A UUID (any case on input; stored and answered lower-case).',
});
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A URI naming the problem type.' }),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable code, e.g. VALIDATION_FAILED, ENTRY_LOCKED.' }),
    detail: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Messages keyed by field path.' })),
    traceId: Type.String({ description: 'The request id (also in X-Request-Id).' }),
  },
  { $id: 'Problem', additionalProperties: true, description: 'application/problem+json (RFC 9457).' },
);

const problemRef = Type.Ref('Problem');

/** Where errorResponses leaves an operation's codes for the OpenAPI plugin (`x-error-codes`); a symbol, so
 * Fastify's response compiler, which reads status keys, never sees it. */
export const ERROR_CODES_OF_OPERATION = Symbol('errorCodes');

/** What every authenticated operation can answer: a bad request, no key, a key without the scope. */
const BASE_CODES: readonly ErrorCode[] = ['VALIDATION_FAILED', 'UNAUTHENTICATED', 'INSUFFICIENT_SCOPE'];

/**
 * The error responses of an authenticated operation, from the codes it can answer besides the base
 * ones: one problem response per status (from the error table), and the codes themselves for the
 * OpenAPI document.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> & { [ERROR_CODES_OF_OPERATION]: ErrorCode[] } {
  const all = [...new Set([...BASE_CODES, ...codes])];
  const out: Record<number, TSchema> = {};
  for (const code of all) out[ERROR_CODES[code].status] = problemRef;
  return Object.assign(out, { [ERROR_CODES_OF_OPERATION]: all });
}

/**
 * What a write to an existing resource can answer besides its own refusals: it is gone, stale or
 * raced. An Idempotency-Key's refusals are added to every POST by the OpenAPI plugin; PUT and DELETE
 * take no key (If-Match makes them safe to retry), so they do not list them (onboarding try, session 27).
 */
export const EDIT_ERRORS: readonly ErrorCode[] = ['NOT_FOUND', 'PRECONDITION_FAILED', 'CONCURRENCY_CONFLICT'];

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
  pageSize: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_SIZE_MAX,
      default: PAGE_SIZE_DEFAULT,
      description: `Items per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}).`,
    }),
  ),
};

export function pageOf<T extends TSchema>(item: T, $id: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      page: Type.Integer(),
      pageSize: Type.Integer(),
      total: Type.Integer({ description: 'Items matching the filters, over all pages.' }),
    },
    { $id },
  );
}
