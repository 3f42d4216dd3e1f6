// An append that got no answer (a lost connection, a client deadline) may have committed, or may
// still. It is sent once more with the same events, event ids included: the store answers the first
// one's result if its events are stored (PostgreSQL: findPriorAppend and es_append_all's re-append
// path; EventStoreDB: its idempotent write by event id), and writes them if not. A second append
// waits behind a first still running, on the stream's lock or its revision's unique index. Failing
// instead answers 503 for a command that may have been recorded: the client, told nothing was done,
// sends it again, and a create is made twice or a transition refused as already done (before
// session 22 the idempotency key was dropped on a 5xx; now a retry is judged by the log).
//
// An error the database answered is not sent again: its statement failed and rolled back, and the
// same statement would only fail again, once more after a statement timeout. A refusal
// (WrongExpectedVersionError) is such an answer too, and is thrown as it is.
import { WrongExpectedVersionError } from '../eventstore/port.js';

/** `send` once, and once more if it failed without an answer; the first error if both fail so. */
export async function appendAnswered<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof WrongExpectedVersionError || answeredByDatabase(err)) throw err;
    return send().catch((again: unknown) => {
      throw again instanceof WrongExpectedVersionError ? again : err;
    });
  }
}

const SESSION_ENDED = new Set(['57P01', '57P02', '57P03', '57P05']);

/**
 * PostgreSQL's (and PGlite's) errors carry the `severity` of the server's ErrorResponse; a lost
 * connection, a client deadline or a transport error has none, and leaves the outcome unknown. So
 * does an answer that ends the session (FATAL or PANIC; class 08, a connection exception; 57P01–57P05,
 * a shutdown, a terminated backend or an idle-session timeout: the codes too, as a server may send
 * its severity translated): it can come after a commit whose reply was still unsent. EventStoreDB's
 * errors carry no severity: every one but a refusal is sent again, which its idempotent writes make
 * safe.
 */
function answeredByDatabase(err: unknown): boolean {
  const { severity, code } = (err ?? {}) as { severity?: unknown; code?: unknown };
  if (typeof severity !== 'string' || severity === 'FATAL' || severity === 'PANIC') return false;
  return typeof code !== 'string' || !(code.startsWith('08') || SESSION_ENDED.has(code));
}
