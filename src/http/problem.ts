// Every error leaves as application/problem+json (RFC 9457) with a stable `code`; validation
// errors add `errors` keyed by field. This is the one place errors become responses.
import { messagesAt } from '../domain/shared/field-errors.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type FieldErrors } from '../domain/errors.js';
import { ERROR_CODES, reasonPhrase, type ErrorCode } from '../domain/error-codes.js';
import { WrongExpectedVersionError } from '../eventstore/port.js';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  errors?: FieldErrors;
  traceId: string;
  [extra: string]: unknown;
}

export const problemType = (code: string): string => `https://travelog.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`;

/** The problem body of a registered code: its status and title come from the one table. */
export function problem(
  code: ErrorCode,
  traceId: string,
  detail?: string,
  errors?: FieldErrors,
  extra?: Record<string, unknown>,
): ProblemBody {
  return problemWithStatus(ERROR_CODES[code].status, code, traceId, detail, errors, extra);
}

/** Only for BAD_REQUEST: a client error Fastify raised with a status of its own (405, 406, ...). */
function problemWithStatus(
  status: number,
  code: ErrorCode,
  traceId: string,
  detail?: string,
  errors?: FieldErrors,
  extra?: Record<string, unknown>,
): ProblemBody {
  return {
    type: problemType(code),
    title: reasonPhrase(status),
    status,
    code,
    ...(detail !== undefined ? { detail } : {}),
    ...(errors ? { errors } : {}),
    ...extra,
    traceId,
  };
}

export function sendProblem(reply: FastifyReply, body: ProblemBody): FastifyReply {
  // Every 503 is one to retry (the database away, read models behind, the API closing): say when.
  if (body.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', '5');
  return reply.code(body.status).type('application/problem+json; charset=utf-8').send(body);
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `['expenses', '0', 'amount']` → `expenses[0].amount`: how a 400's `errors` name a field ('' is the whole part). */
export function fieldOfSegments(segments: readonly (string | number)[]): string {
  return segments
    .map((seg) => (/^\d+$/.test(String(seg)) ? `[${seg}]` : `.${seg}`))
    .join('')
    .replace(/^\./, '');
}

/** `/expenses/0/amount` → `expenses[0].amount`; a missing or unknown property names itself. */
function fieldOf(context: string | undefined, issue: AjvIssue): string {
  let path = fieldOfSegments(issue.instancePath.split('/').slice(1));
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') path = path ? `${path}.${extra}` : extra;
  if (path === '') return context === 'querystring' ? 'query' : (context ?? 'body');
  return path;
}

/**
 * Dates and date-times name the range they are held to (validation.ts): a valid RFC 3339 value
 * outside it (year 0001, an offset of +20:00) would otherwise read as malformed.
 */
const FORMAT_MESSAGES: Record<string, string> = {
  date: 'Must be a calendar date (yyyy-MM-dd) in the years 0100 to 9999.',
  'date-time':
    'Must be an RFC 3339 date-time in the years 0100 to 9999, with an offset within ±15:59 and no leap second (e.g. 2026-11-25T09:30:00Z).',
};

function messageOf(issue: AjvIssue): string {
  switch (issue.keyword) {
    case 'required':
      return 'Required.';
    case 'additionalProperties':
      return 'Unknown field.';
    case 'maxItems':
      return `At most ${String(issue.params.limit)} items.`;
    case 'minItems':
      return `At least ${String(issue.params.limit)} items.`;
    case 'enum':
      return `Must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}.`;
    case 'format':
      return FORMAT_MESSAGES[String(issue.params.format)] ?? `Must be a valid ${String(issue.params.format)}.`;
    case 'type':
      return `Must be of type ${String(issue.params.type)}.`;
    case 'storable':
      return issue.message ?? 'Cannot be stored.'; // validation.ts writes whole sentences
    default:
      return issue.message ? `${issue.message[0]!.toUpperCase()}${issue.message.slice(1)}.` : 'Invalid.';
  }
}

export function validationErrors(context: string | undefined, issues: AjvIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    // anyOf/oneOf restate their branches' failures; keep the specific ones.
    if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf' || issue.keyword === 'if') continue;
    const field = fieldOf(context, issue);
    const msg = messageOf(issue);
    const messages = messagesAt(errors, field);
    if (!messages.includes(msg)) messages.push(msg);
  }
  // A nullable field's value that fails its type's rules also fails the null branch; that it could
  // have been null says nothing about what is wrong with it (or with a field inside it).
  for (const [field, messages] of Object.entries(errors)) {
    if (!messages.includes(NOT_NULL)) continue;
    const rest = messages.filter((m) => m !== NOT_NULL);
    const inside = Object.keys(errors).some((other) => other.startsWith(`${field}.`) || other.startsWith(`${field}[`));
    if (rest.length > 0) errors[field] = rest;
    else if (inside) delete errors[field];
  }
  return errors;
}

const NOT_NULL = 'Must be of type null.';

const FASTIFY_CODES: Record<string, { code: ErrorCode; field?: string; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', field: 'body', detail: 'The request body exceeds the size limit.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'Send the body as application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'MALFORMED_REQUEST',
    field: 'body',
    detail: 'Content-Length does not match the body.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'MALFORMED_JSON', field: 'body', detail: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', field: 'body', detail: 'The body is not valid JSON.' },
  FST_ERR_BAD_URL: { code: 'MALFORMED_REQUEST', field: 'path', detail: 'The URL path is not valid percent-encoding.' },
  // The router refuses a path segment longer than its limit before it knows which parameter it is.
  FST_ERR_MAX_PARAM_LENGTH: { code: 'MALFORMED_REQUEST', field: 'path', detail: 'A path segment is too long.' },
  FST_ERR_VALIDATION: { code: 'VALIDATION_FAILED', detail: 'The request is invalid.' },
};

export function toProblem(err: unknown, request: FastifyRequest): ProblemBody {
  const traceId = request.id;
  if (err instanceof DomainError) return problem(err.code, traceId, err.message, err.errors, err.extra);
  if (err instanceof WrongExpectedVersionError) {
    return problem('CONCURRENCY_CONFLICT', traceId, 'The resource changed while the request ran; retry it.');
  }
  const fe = err as FastifyError & { validationContext?: string; validation?: AjvIssue[] };
  if (fe.validation) {
    return problem('VALIDATION_FAILED', traceId, 'The request is invalid.', validationErrors(fe.validationContext, fe.validation));
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return problem(known.code, traceId, known.detail, known.field ? { [known.field]: [known.detail] } : undefined);
  if (err instanceof SyntaxError && (fe.statusCode === 400 || !fe.statusCode)) {
    return problem('MALFORMED_JSON', traceId, 'The body is not valid JSON.', { body: ['The body is not valid JSON.'] });
  }
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
  if (status < 500) return problemWithStatus(status, 'BAD_REQUEST', traceId, fe.message);
  return problem('INTERNAL_ERROR', traceId, 'An unexpected error occurred. Quote the traceId when reporting it.');
}
