// Glue between routes and the write path: the command context from the caller, If-Match in and
// ETag out, and read-your-writes (the response leaves only once the read model has the change, so
// a GET right after it sees it).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { handleCommand, type CommandRequest, type CommandResult } from '../application/command-handler.js';
import type { CommandContext, DomainEvent } from '../domain/decider.js';
import { DomainError } from '../domain/errors.js';
import type { Position } from '../eventstore/port.js';
import { principalOf } from './plugins/auth.js';

export function commandContext(request: FastifyRequest, employeeId?: string): CommandContext {
  const p = principalOf(request);
  return {
    tenantId: p.tenantId,
    now: new Date().toISOString(),
    newId: randomUUID,
    actor: { apiKeyId: p.apiKeyId, ...(employeeId ? { employeeId } : {}) },
  };
}

/** `"3"`, `W/"3"` or `3` → 3; absent → undefined; anything else is a 400 naming the header. */
export function ifMatchOf(request: FastifyRequest): number | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined) return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(String(raw));
  if (!m) {
    throw new DomainError('VALIDATION_FAILED', 'If-Match must name a revision as returned in ETag, e.g. "3".', {
      'If-Match': ['Must be an ETag such as "3".'],
    });
  }
  return Number(m[1]);
}

export const etagOf = (revision: number): string => `"${revision}"`;

/**
 * Read-your-writes: wait until the named projection (or each of several, when a write shows in more
 * than one read model) applied the write (bounded).
 */
export async function awaitProjection(
  app: FastifyInstance,
  projection: string | readonly string[],
  position: Position | undefined,
): Promise<void> {
  if (!position) return;
  for (const name of typeof projection === 'string' ? [projection] : projection) {
    const ok = await app.deps.runner.waitFor(name, position, 5000);
    if (!ok) app.log.warn({ projection: name }, 'read model did not catch up within 5 s; the response still carries the new state');
  }
}

export async function runCommand<C, S, E extends DomainEvent>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  projection: string | readonly string[],
  req: Omit<CommandRequest<C, S, E>, 'correlationId' | 'ifMatch' | 'context'> & { context?: CommandContext },
): Promise<CommandResult<S>> {
  const result = await handleCommand(app.deps.store, {
    ...req,
    context: req.context ?? commandContext(request),
    correlationId: request.id,
    ifMatch: ifMatchOf(request),
  }).catch((err: unknown) => {
    app.deps.metrics.commandsTotal.inc({ outcome: err instanceof DomainError ? err.code : 'error' });
    throw err;
  });
  app.deps.metrics.commandsTotal.inc({ outcome: 'ok' });
  await awaitProjection(app, projection, result.position);
  reply.header('ETag', etagOf(result.revision));
  return result;
}
