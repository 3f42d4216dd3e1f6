// Domain errors carry a stable code; the HTTP status the shell answers with is the code's, from the
// one table (error-codes.ts). The code is the contract (clients branch on it); the message is for
// people.
import { statusOf, type ErrorCode } from './error-codes.js';

export type FieldErrors = Record<string, string[]>;
export type { ErrorCode } from './error-codes.js';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Validation-family errors name the offending fields (problem+json `errors`). */
    readonly errors?: FieldErrors,
    /** Extra members for the problem body (e.g. the current status of an entry). */
    readonly extra?: Record<string, unknown>,
  ) {
    // A client's mistake (a 4xx) is answered, never logged with a stack, and capturing one costs
    // 3–8 µs per answer; a 5xx keeps its stack for the log.
    const stackTraceLimit = Error.stackTraceLimit;
    if (statusOf(code) < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DomainError';
  }

  /** The HTTP status of the code (error-codes.ts). */
  get status(): number {
    return statusOf(this.code);
  }
}

export const validationError = (errors: FieldErrors, message = 'The request is invalid.'): DomainError =>
  new DomainError('VALIDATION_FAILED', message, errors);

export const notFound = (what: string): DomainError => new DomainError('NOT_FOUND', `${what} was not found.`);

export const conflict = (code: ErrorCode, message: string, extra?: Record<string, unknown>): DomainError =>
  new DomainError(code, message, undefined, extra);
