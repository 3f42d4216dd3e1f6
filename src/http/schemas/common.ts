// Schemas shared by every route group. Named ($id) schemas become OpenAPI components.
import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';

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

export const Uuid = Type.String({ format: 'uuid', description: 'A UUID.' });
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

/** Standard error responses of an authenticated route, plus any extra statuses it can answer. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 400: problemRef, 401: problemRef, 403: problemRef };
  for (const s of statuses) out[s] = problemRef;
  return out;
}

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
