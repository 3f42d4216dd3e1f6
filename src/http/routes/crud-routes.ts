// The five routes of a simple event-sourced resource (issue 10): POST (create), PUT (full
// replacement, archiving included), DELETE, GET list (page or cursor) and GET one, with
// Idempotency-Key, If-Match and ETag through runCommand and read-your-writes on its projection.
// A resource file declares only what differs: its schemas, its commands (with the facts each looks
// up), its reads and the guards that run around every write (unique-code claims and the like).
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { CommandContext, Decider, DomainEvent } from '../../domain/decider.js';
import type { ErrorCode } from '../../domain/error-codes.js';
import { notFound } from '../../domain/errors.js';
import type { Db } from '../../infra/database.js';
import type { ReadModelGate } from '../../application/read-model-gate.js';
import type { SeekPage, PageRequest } from '../../../projections/keyset.js';
import { commandContext, etagOf, runCommand } from '../command-support.js';
import { answeredNotModified, NotModified } from '../conditional-read.js';
import { listResponse, pagingOf } from '../cursor.js';
import { principalOf } from '../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams } from '../schemas/common.js';
import { ref } from '../schemas/ref.js';

/** What runs around a write besides its decision: `beforeAppend` after the decision, `release` after the append. */
export interface WriteGuards<S, E extends DomainEvent> {
  around(
    ctx: CommandContext,
    correlationId: string,
    id: string,
  ): { beforeAppend: (events: E[], state: S) => Promise<void>; release: () => Promise<void> };
}

export interface CrudResource<C, S, E extends DomainEvent, Item, B extends TSchema, Query> {
  /** The collection path, e.g. `/cost-centers`; also names the list in its cursors. */
  path: string;
  tags: string[];
  /** For messages: `Cost center` (was not found). */
  noun: string;
  summaries: { create: string; replace: string; delete: string; list: string; read: string };
  /** Named schemas: the request body and the item; the page and the list's query string. */
  schemas: { body: B; item: TSchema; page: TSchema; listQuery: TSchema };
  /** The read model its reads use; read-your-writes waits for it, and for `alsoShownBy`. */
  projection: string;
  /** Other read models a write shows in (a vehicle's names on the entries naming it). */
  alsoShownBy?: readonly string[];
  /**
   * The read models whose rows may name this resource: a delete counts its references only once they
   * have applied the log as it stands (read-model-gate.ts), so a reference not yet projected counts.
   */
  referencedIn: readonly string[];
  decider: Decider<C, S, E>;
  streamName: (id: string) => string;
  /** The item a successful write leaves (the route's response). */
  itemOf: (state: S) => Item;
  /** Error codes each write can answer besides the common ones (CODE_TAKEN and the like). */
  writeErrors?: ErrorCode[];
  guards: (app: Parameters<FastifyPluginAsyncTypebox>[0]) => WriteGuards<S, E>;
  /**
   * The commands, built per attempt (facts looked up in the read models are fresh each time). A miss
   * in a read model, and a count of references before a delete, go through `readModels`
   * (read-model-gate.ts): a read model behind the log proves no absence.
   */
  commands: (
    db: Db,
    readModels: ReadModelGate,
  ) => {
    create: (id: string, body: Static<B>, ctx: CommandContext) => Promise<C>;
    /** `state`: the resource as stored, for checks that depend on what it holds now. */
    replace: (id: string, body: Static<B>, ctx: CommandContext, state: S) => Promise<C>;
    delete: (id: string, ctx: CommandContext) => Promise<C>;
  };
  reads: {
    get: (db: Db, tenantId: string, id: string) => Promise<{ item: Item; revision: number } | undefined>;
    list: (db: Db, tenantId: string, q: Query & { page: PageRequest }) => Promise<SeekPage<Item>>;
  };
}

export function crudRoutes<C, S, E extends DomainEvent, Item, B extends TSchema, Query>(
  r: CrudResource<C, S, E, Item, B, Query>,
): FastifyPluginAsyncTypebox {
  const { tags, projection, decider, streamName } = r;
  const writeErrors = r.writeErrors ?? [];
  const notFoundMessage = `${r.noun} was not found.`;
  return async (app) => {
    const guards = r.guards(app);
    const commands = r.commands(app.deps.db, app.deps.readModels);
    const write = async (
      request: FastifyRequest,
      reply: Parameters<typeof runCommand>[2],
      id: string,
      build: (ctx: CommandContext, state: S) => Promise<C>,
      isNew: boolean,
    ) => {
      const ctx = commandContext(request);
      const around = guards.around(ctx, request.id, id);
      const result = await runCommand(app, request, reply, [projection, ...(r.alsoShownBy ?? [])], {
        streamId: streamName(id),
        decider,
        context: ctx,
        ...(isNew ? { mustNotExist: true } : { mustExist: { notFoundMessage } }),
        command: (state: S) => build(ctx, state),
        beforeAppend: around.beforeAppend,
      });
      // A new resource held no code before: nothing to release.
      if (!isNew) await around.release();
      return result.state;
    };

    app.post(
      r.path,
      {
        config: { scope: 'write' },
        schema: {
          tags,
          summary: r.summaries.create,
          body: ref(r.schemas.body),
          response: {
            201: ref(r.schemas.item),
            ...errorResponses(...writeErrors, 'ALREADY_EXISTS', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'),
          },
        },
      },
      async (request, reply) => {
        const id = randomUUID();
        const state = await write(request, reply, id, (ctx) => commands.create(id, request.body as Static<B>, ctx), true);
        reply.code(201).header('Location', `/api/v1${r.path}/${id}`);
        return r.itemOf(state);
      },
    );

    app.put(
      `${r.path}/:id`,
      {
        config: { scope: 'write' },
        schema: {
          tags,
          summary: r.summaries.replace,
          params: IdParams,
          body: ref(r.schemas.body),
          response: { 200: ref(r.schemas.item), ...errorResponses(...EDIT_ERRORS, ...writeErrors) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        return r.itemOf(
          await write(request, reply, id, (ctx, state) => commands.replace(id, request.body as Static<B>, ctx, state), false),
        );
      },
    );

    app.delete(
      `${r.path}/:id`,
      {
        config: { scope: 'write' },
        schema: {
          tags,
          summary: r.summaries.delete,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(...EDIT_ERRORS, 'RESOURCE_IN_USE') },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await write(
          request,
          reply,
          id,
          async (ctx) => {
            await app.deps.readModels.settle(r.referencedIn);
            return commands.delete(id, ctx);
          },
          false,
        );
        return reply.code(204).send(null);
      },
    );

    app.get(
      r.path,
      {
        config: { scope: 'read' },
        schema: {
          tags,
          summary: r.summaries.list,
          querystring: r.schemas.listQuery,
          response: { 200: r.schemas.page, ...errorResponses() },
        },
      },
      async (request) => {
        const paging = pagingOf(r.path.slice(1), request as FastifyRequest & { query: Record<string, unknown> });
        const page = await r.reads.list(app.deps.db, principalOf(request).tenantId, { ...(request.query as Query), page: paging.request });
        return listResponse(paging, page.rows, page);
      },
    );

    app.get(
      `${r.path}/:id`,
      {
        config: { scope: 'read' },
        schema: {
          tags,
          summary: r.summaries.read,
          params: IdParams,
          response: { 200: ref(r.schemas.item), 304: NotModified, ...errorResponses('NOT_FOUND') },
        },
      },
      async (request, reply) => {
        const row = await r.reads.get(app.deps.db, principalOf(request).tenantId, request.params.id);
        if (!row) throw notFound(r.noun);
        // The item is the stream's own state at its revision, so the revision ETag validates its body.
        if (answeredNotModified(request, reply, etagOf(row.revision))) return reply;
        return row.item;
      },
    );
  };
}
