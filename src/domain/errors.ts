// Domain errors carry a stable code and the HTTP status the shell answers with. The code is the
// contract (clients branch on it); the message is for people.

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** Validation-family errors name the offending fields (problem+json `errors`). */
    readonly errors?: FieldErrors,
    /** Extra members for the problem body (e.g. the current status of an entry). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (errors: FieldErrors, message = 'The request is invalid.'): DomainError =>
  new DomainError('VALIDATION_FAILED', 400, message, errors);

export const notFound = (what: string): DomainError => new DomainError('NOT_FOUND', 404, `${what} was not found.`);

export const conflict = (code: string, message: string, extra?: Record<string, unknown>): DomainError =>
  new DomainError(code, 409, message, undefined, extra);
