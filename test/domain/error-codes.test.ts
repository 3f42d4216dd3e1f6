// The one error table: every code has an error status and its reason phrase, and a DomainError
// answers with its code's status (no status is written at a throw site).
import t from 'tap';
import { ERROR_CODES, isErrorCode, reasonPhrase, type ErrorCode } from '../../src/domain/error-codes.js';
import { conflict, DomainError, notFound, validationError } from '../../src/domain/errors.js';

t.test('every code has a 4xx or 5xx status and that status title', async (t) => {
  for (const [code, { status, title }] of Object.entries(ERROR_CODES)) {
    t.ok(status >= 400 && status <= 599, `${code}: ${status}`);
    t.equal(title, reasonPhrase(status), `${code}: ${title}`);
    t.match(code, /^[A-Z][A-Z0-9_]*$/, `${code} is a stable upper-case code`);
  }
});

t.test('a DomainError answers with the status of its code', async (t) => {
  const samples: [DomainError, ErrorCode, number][] = [
    [validationError({ x: ['Bad.'] }), 'VALIDATION_FAILED', 400],
    [notFound('Travel entry'), 'NOT_FOUND', 404],
    [conflict('ENTRY_LOCKED', 'locked'), 'ENTRY_LOCKED', 409],
    [new DomainError('IDEMPOTENCY_KEY_REUSED', 'reused'), 'IDEMPOTENCY_KEY_REUSED', 422],
    [new DomainError('PRECONDITION_FAILED', 'stale'), 'PRECONDITION_FAILED', 412],
    [new DomainError('NOT_AN_ELIGIBLE_APPROVER', 'no'), 'NOT_AN_ELIGIBLE_APPROVER', 403],
  ];
  for (const [err, code, status] of samples) t.same([err.code, err.status], [code, status], code);
});

t.test('a 4xx DomainError carries no stack frames; a 5xx keeps them, and the limit is restored', async (t) => {
  const limit = Error.stackTraceLimit;
  const frames = (err: Error): number => (err.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length;
  t.equal(frames(validationError({ x: ['Bad.'] })), 0, 'a 400 is answered, never logged with a stack');
  t.equal(frames(conflict('ENTRY_LOCKED', 'locked')), 0);
  t.ok(frames(new DomainError('INTERNAL_ERROR', 'broken')) > 0, 'a 500 is logged with where it came from');
  t.equal(Error.stackTraceLimit, limit);
  t.ok(frames(new Error('plain')) > 0, 'other errors still capture theirs');
});

t.test('isErrorCode knows the table and nothing else', async (t) => {
  t.ok(isErrorCode('ENTRY_NUMBER_TAKEN'));
  t.notOk(isErrorCode('NO_SUCH_CODE'));
  t.notOk(isErrorCode('toString'), 'not fooled by the prototype');
});
