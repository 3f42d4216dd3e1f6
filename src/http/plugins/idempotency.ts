// Idempotency-Key on POST: the first response to a key is stored and replayed for a retry with
// the same body (marked Idempotent-Replayed); the same key with another body is 422. A request
// still in flight under the key makes a concurrent duplicate answer 409. Server errors are not
// stored, but the key is not dropped either: a server error can follow a commit. Keys are scoped
// to the tenant and kept 24 hours.
//
// A claim left unanswered is judged by the log (../idempotency/abandoned-claim.ts): after a 5xx,
// once its append can no longer commit (the statement timeout and the client's margin); when its
// process was killed (or the database went away before the answer was stored), once the claim is
// older than IDEMPOTENCY_ABANDONED_AFTER_SECONDS. If the request changed nothing, the retry takes
// the key over and runs; if it did, the retry is told so (409 IDEMPOTENCY_REPLAY_UNAVAILABLE naming
// the resources it changed). Either answer is stored for later retries. Storing an answer never
// changes it: a commit answered 201 stays 201 if the store fails. A claim is held by a token of
// the server's (never the client's X-Request-Id), which fences the takeover and the answer.
//
// The stored body is sealed with SECRETS_KEY (AES-256-GCM, the SecretBox of webhook secrets): a
// response can carry an employee's IBAN and tax id, which must not sit in the table in plain text.
// The replay opens it and sends the very bytes first sent. Rows written before sealing (plain JSON)
// still replay as stored: they are deleted by the expiry sweep below within a day of the upgrade.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database, Db } from '../../infra/database.js';
import { CLIENT_DEADLINE_MARGIN_MS } from '../../infra/database.js';
import { idempotencyWindowFloorSeconds } from '../../config/config.js';
import type { IdempotencyKeysTable } from '../tables.js';
import type { SecretBox } from '../../infra/secrets.js';
import { formatPosition, type EventStore } from '../../eventstore/port.js';
import { outcomeOf } from '../idempotency/abandoned-claim.js';
import { problem, sendProblem } from '../problem.js';
import { ReadModelBehind } from '../../application/read-model-gate.js';
import { requestFingerprint, sameRequest } from '../request-fingerprint.js';

export const IDEMPOTENCY_TTL_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ['etag', 'location', 'content-type'];
/** Marks a sealed body; a plain body stored by an earlier version is JSON or empty, never this. */
export const SEALED_BODY_PREFIX = 'sealed:';
/** How often one process deletes every expired key (otherwise a key is only purged when reused). */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** A claim younger than this is a request still running (a double click): retry in a second. */
const LIKELY_RUNNING_MS = 10_000;
/** The head of an empty log: every event comes after it. */
const EMPTY_LOG = '0/0';

/** The claim this request holds: its key and the server's token that fences it. */
interface HeldClaim {
  key: string;
  token: string;
  /** The request was refused before its command could write (a read model behind the log). */
  wroteNothing?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: HeldClaim | undefined;
  }
}

function sealBody(secrets: SecretBox, body: string): string {
  return body === '' ? '' : `${SEALED_BODY_PREFIX}${secrets.seal(body)}`;
}

function openBody(secrets: SecretBox, stored: string | null): string {
  if (stored === null || !stored.startsWith(SEALED_BODY_PREFIX)) return stored ?? '';
  return secrets.open(stored.slice(SEALED_BODY_PREFIX.length));
}

/**
 * Where the request's events will start. A head that cannot be read fails the request (a 503 when
 * the store is away) before anything is claimed: a claim without it could never be judged.
 */
async function logHead(store: EventStore): Promise<string> {
  const head = await store.headPosition();
  return head === undefined ? EMPTY_LOG : formatPosition(head);
}

type PriorClaim = Selectable<IdempotencyKeysTable> & { claimed_age_ms: number; failed_age_ms: number | null };

/**
 * Claims `key` for this request (a row with no response yet, an expired row replaced), or answers
 * the row that already holds it, with its age and the time since its request failed (by the
 * database's clock). Also used by the webhook routes that keep their responses themselves
 * (routes/webhooks/own-idempotency.ts), so a tenant's keys are one namespace.
 */
export async function claimIdempotencyKey(
  db: Db,
  tenantId: string,
  key: string,
  request: FastifyRequest,
  hash: string,
  claim: { token: string | null; logPosition: string | null } = { token: null, logPosition: null },
): Promise<PriorClaim | undefined> {
  const row = {
    tenant_id: tenantId,
    key,
    method: request.method,
    path: request.url,
    request_hash: hash,
    status_code: null,
    response_headers: null,
    response_body: null,
    request_id: request.id,
    log_position: claim.logPosition,
    claim_token: claim.token,
    failed_at: null,
  };
  const claimed = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'key'])
        .doUpdateSet({ ...row, created_at: sql<Date>`now()` })
        .where('idempotency_keys.created_at', '<', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return undefined;
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .select(sql<number>`(extract(epoch from now() - created_at) * 1000)::float8`.as('claimed_age_ms'))
    .select(sql<number | null>`(extract(epoch from now() - failed_at) * 1000)::float8`.as('failed_age_ms'))
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
}

const inUse = (traceId: string, detail = 'A request with this Idempotency-Key is still being processed; retry shortly.') =>
  problem('IDEMPOTENCY_KEY_IN_USE', traceId, detail);

export const idempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('idempotencyClaim', undefined);
    const { config } = app.deps;
    const abandonedAfterMs = config.idempotencyAbandonedAfterSeconds * 1000;
    // A request that failed may have sent its append last just before: past the statement timeout
    // and the client's margin, that append has committed or never will.
    const failedSettleMs = config.dbStatementTimeoutMs + CLIENT_DEADLINE_MARGIN_MS;
    const floorSeconds = idempotencyWindowFloorSeconds(config.dbConnectTimeoutMs, config.dbStatementTimeoutMs);
    // On the embedded default one process at a time owns the database (infra/data-dir-lock.ts), so
    // a claim older than this process was made by one that is gone: what it recorded is final, and
    // the claim is judged at once. After a kill -9 it answered IN_USE for the whole window, 300 s
    // (the embedded-default crash try, session 26).
    const soleOwnerSince = config.databaseUrl === undefined ? Date.now() : undefined;
    if (config.idempotencyAbandonedAfterSeconds < floorSeconds)
      app.log.warn(
        { windowSeconds: config.idempotencyAbandonedAfterSeconds, floorSeconds },
        'IDEMPOTENCY_ABANDONED_AFTER_SECONDS is shorter than a request can run on a frozen database: a retry may run a request that is still running a second time',
      );
    // Expired keys of every tenant, at most once per interval per process, off the request's path.
    let lastSweep = 0;
    const sweepExpired = (): void => {
      if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return;
      lastSweep = Date.now();
      sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`
        .execute(app.deps.db)
        .catch((err: unknown) => app.log.warn({ err }, 'idempotency key sweep failed'));
    };
    app.addHook('preHandler', async (request, reply) => {
      const raw = request.headers['idempotency-key'];
      const principal = request.principal;
      if (request.method !== 'POST' || raw === undefined || !principal) return;
      const key = Array.isArray(raw) ? raw[0]! : raw;
      if (!KEY_PATTERN.test(key)) {
        return sendProblem(
          reply,
          problem('VALIDATION_FAILED', request.id, 'The Idempotency-Key header is invalid.', {
            'Idempotency-Key': ['1 to 255 printable ASCII characters.'],
          }),
        );
      }
      const { db, store } = app.deps;
      const tenantId = principal.tenantId;
      sweepExpired();
      const hash = requestFingerprint(request);
      // The log's head before the claim: every event this request appends comes after it.
      const logPosition = await logHead(store);
      const token = randomUUID();
      const prior = await claimIdempotencyKey(db, tenantId, key, request, hash, { token, logPosition });
      if (prior === undefined) {
        request.idempotencyClaim = { key, token };
        return;
      }
      if (!sameRequest(request, hash, prior.request_hash)) {
        return sendProblem(
          reply,
          problem(
            'IDEMPOTENCY_KEY_REUSED',
            request.id,
            'This Idempotency-Key was used with a different request; use a new key for a new request.',
            { 'Idempotency-Key': ['Already used for another request.'] },
          ),
        );
      }
      if (prior.status_code !== null) {
        for (const [name, value] of Object.entries(prior.response_headers ?? {})) reply.header(name, value);
        return reply.code(prior.status_code).header('Idempotent-Replayed', 'true').send(openBody(app.deps.secrets, prior.response_body));
      }

      // Unanswered: still running, or judged once its outcome can no longer change.
      const ageMs = Number(prior.claimed_age_ms);
      const orphaned = soleOwnerSince !== undefined && ageMs > Date.now() - soleOwnerSince;
      // A request that failed is finished but for its last append; one that never answered may be running.
      const waitMs = orphaned ? 0 : prior.failed_age_ms === null ? abandonedAfterMs - ageMs : failedSettleMs - Number(prior.failed_age_ms);
      if (waitMs > 0) {
        const running = prior.failed_age_ms === null && ageMs < LIKELY_RUNNING_MS;
        const seconds = running ? 1 : Math.ceil(waitMs / 1000);
        reply.header('Retry-After', String(seconds));
        if (running) return sendProblem(reply, inUse(request.id));
        // Older, or failed: more likely left unanswered than running. Say when it will be judged.
        return sendProblem(
          reply,
          inUse(
            request.id,
            `The request made under this Idempotency-Key has not been answered: it is still running, or it ${prior.failed_age_ms === null ? 'was cut off' : 'failed'}. ` +
              `Whether it was carried out is judged in ${seconds} s; retry then.`,
          ),
        );
      }
      const outcome = await outcomeOf(
        store,
        { tenantId, requestId: prior.request_id, logPosition: prior.log_position, claimedAt: new Date(prior.created_at) },
        abandonedAfterMs,
      );
      // The retry takes the claim over (one retry wins; the others are still told "in use"), then
      // either runs, when nothing of the first request was recorded, or answers what became of it.
      // Either answer is stored by onSend, like any other, so later retries replay it.
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ request_id: request.id, log_position: logPosition, claim_token: token, created_at: sql<Date>`now()`, failed_at: null })
        .where('tenant_id', '=', tenantId)
        .where('key', '=', key)
        .where('status_code', 'is', null)
        .where(sql<boolean>`claim_token is not distinct from ${prior.claim_token}`)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) {
        reply.header('Retry-After', '1');
        return sendProblem(reply, inUse(request.id));
      }
      request.idempotencyClaim = { key, token };
      if (outcome.kind === 'not-carried-out') return;
      return sendProblem(
        reply,
        problem(
          'IDEMPOTENCY_REPLAY_UNAVAILABLE',
          request.id,
          outcome.kind === 'carried-out'
            ? 'The request made under this Idempotency-Key was carried out, but its answer was not kept (the server stopped, or failed after recording it). Read the resources it changed instead of sending it again.'
            : 'The request made under this Idempotency-Key was left unanswered, and this server cannot tell whether it was carried out. Check before sending it again under a new key.',
          undefined,
          outcome.kind === 'carried-out' ? { resources: outcome.resources } : undefined,
        ),
      );
    });

    // A read model behind the log (read-model-gate.ts) refuses while the command gathers its facts,
    // before it decides, so the 503 wrote nothing: like a 412, its claim is dropped and the retry
    // it asks for runs at once. Kept as a 5xx, the retry was refused IN_USE until the abandoned
    // window passed, about 30 s (a review, session 25).
    app.addHook('onError', async (request, _reply, error) => {
      if (request.idempotencyClaim && error instanceof ReadModelBehind) {
        request.idempotencyClaim.wroteNothing = true;
      }
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotencyClaim;
      const principal = request.principal;
      if (claim === undefined || !principal) return payload;
      // Fenced on this request's token: a claim taken over by a retry is no longer its to answer.
      const ours = (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
        eb.and([
          eb('tenant_id', '=', principal.tenantId),
          eb('key', '=', claim.key),
          eb('claim_token', '=', claim.token),
          eb('status_code', 'is', null),
        ]);
      try {
        if (reply.statusCode === 412 || claim.wroteNothing === true) {
          // A stale If-Match wrote nothing, so nothing is kept: a retry with the corrected
          // revision runs (it got this 412 back, naming a revision it no longer sent: outside
          // try, session 23), and one with the same stale revision is refused again as it was.
          // If-Match stays out of the fingerprint: a client whose 201 was lost may retry with
          // the ETag it read since, and must get that 201, not a 422 inviting a second write.
          await app.deps.db.deleteFrom('idempotency_keys').where(ours).execute();
          return payload;
        }
        if (reply.statusCode >= 500) {
          // Not stored, and not dropped either: a server error can follow the commit, and a retry
          // that ran again would then do it twice. The retry is judged by the log once settled.
          await app.deps.db
            .updateTable('idempotency_keys')
            .set({ failed_at: sql<Date>`now()` })
            .where(ours)
            .execute();
          return payload;
        }
        const headers: Record<string, string> = {};
        for (const h of REPLAYED_HEADERS) {
          const v = reply.getHeader(h);
          if (v !== undefined) headers[h] = String(v);
        }
        await app.deps.db
          .updateTable('idempotency_keys')
          .set({
            status_code: reply.statusCode,
            response_headers: JSON.stringify(headers),
            response_body: sealBody(app.deps.secrets, typeof payload === 'string' ? payload : payload == null ? '' : String(payload)),
          })
          .where(ours)
          .execute();
      } catch (err) {
        // The answer stands (what the client is told happened did happen); the claim stays
        // unanswered and a retry is judged by the log once the claim is abandoned.
        request.log.warn({ err }, 'the answer under an Idempotency-Key could not be stored');
      }
      return payload;
    });
  },
  { name: 'idempotency', dependencies: ['deps', 'auth'] },
);
