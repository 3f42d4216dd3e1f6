// Every error code the service answers with, its HTTP status and its title: the one table. The
// code is the contract (clients branch on it); the status is resolved here, never at a throw site;
// the title is the status's reason phrase (RFC 9110), as problem+json bodies have always carried.
// The OpenAPI document lists, per operation, the codes it can return (`x-error-codes`).
// A new code is one row here; `npm run typecheck` then accepts it at throw sites.

const REASONS = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const;
type Status = keyof typeof REASONS;

/** The reason phrase of a status (the problem's `title`); 'Error' for one not listed. */
export const reasonPhrase = (status: number): string => (REASONS as Record<number, string>)[status] ?? 'Error';

const e = <S extends Status>(status: S) => ({ status, title: REASONS[status] });

export const ERROR_CODES = {
  // Requests the service cannot read or accept.
  VALIDATION_FAILED: e(400),
  MALFORMED_JSON: e(400),
  MALFORMED_REQUEST: e(400),
  BAD_REQUEST: e(400),
  EXCHANGE_RATE_UNAVAILABLE: e(400),
  PER_DIEM_RATE_UNAVAILABLE: e(400),
  PAYLOAD_TOO_LARGE: e(413),
  UNSUPPORTED_MEDIA_TYPE: e(415),
  // Refused by the HTTP parser before any request exists (src/http/client-error.ts).
  HEADERS_TOO_LARGE: e(431),
  REQUEST_TIMEOUT: e(408),
  // Who is calling.
  UNAUTHENTICATED: e(401),
  INSUFFICIENT_SCOPE: e(403),
  NOT_AN_ELIGIBLE_APPROVER: e(403),
  RATE_LIMITED: e(429),
  // What is addressed.
  NOT_FOUND: e(404),
  ROUTE_NOT_FOUND: e(404),
  TENANT_NOT_FOUND: e(404),
  API_KEY_NOT_FOUND: e(404),
  PROJECTION_NOT_FOUND: e(404),
  // Concurrency, idempotency and preconditions.
  PRECONDITION_FAILED: e(412),
  CONCURRENCY_CONFLICT: e(409),
  ALREADY_EXISTS: e(409),
  IDEMPOTENCY_KEY_IN_USE: e(409),
  IDEMPOTENCY_KEY_REUSED: e(422),
  IDEMPOTENCY_REPLAY_UNAVAILABLE: e(409),
  LIMIT_REACHED: e(409),
  // Organization resources (departments, vehicles, cost centers).
  RESOURCE_IN_USE: e(409),
  CODE_TAKEN: e(409),
  // Travel entries.
  ENTRY_ALREADY_EXISTS: e(409),
  ENTRY_LOCKED: e(409),
  ENTRY_NUMBER_TAKEN: e(409),
  INVALID_TRANSITION: e(409),
  PAYOUT_BATCH_MISMATCH: e(409),
  // Employees.
  EMPLOYEE_ALREADY_EXISTS: e(409),
  EMPLOYEE_ARCHIVED: e(409),
  // Payout batches.
  ALREADY_PAID_OUT: e(409),
  PAYOUT_BATCH_ALREADY_EXISTS: e(409),
  PAYOUT_BATCH_DELETED: e(409),
  PAYOUT_BATCH_REJECTED: e(409),
  PAYOUT_BATCH_SETTLEMENT_MISMATCH: e(409),
  PAYOUT_REVERSAL_INCOMPLETE: e(409),
  // Webhooks.
  WEBHOOK_URL_INVALID: e(400),
  WEBHOOK_URL_NOT_HTTPS: e(400),
  WEBHOOK_URL_FORBIDDEN_ADDRESS: e(400),
  WEBHOOK_URL_UNRESOLVABLE: e(400),
  WEBHOOK_EVENT_TYPES_INVALID: e(400),
  DELIVERY_NOT_RETRYABLE: e(409),
  // The operator's admin API.
  ADMIN_TOKEN_INVALID: e(401),
  UNKNOWN_OPERATION: e(404),
  // Operations the API no longer offers (the replacement is named in the problem).
  OPERATION_REMOVED: e(410),
  // The service itself.
  INTERNAL_ERROR: e(500),
  SERVICE_UNAVAILABLE: e(503),
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);

export const statusOf = (code: ErrorCode): number => ERROR_CODES[code].status;
export const titleOf = (code: ErrorCode): string => ERROR_CODES[code].title;
