// Payouts: the entries ready for payout, batches that mark their entries paid out (and lock
// them), the batch history, and deleting a batch, which reverses it. A batch is a process over
// many streams (src/application/payouts, docs/payouts.md); `entryIds` lists only the entries the
// batch actually paid, which is what an ERP pays.
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError, notFound } from '../../../domain/errors.js';
import { PAYOUT_BATCH_STATUSES, PAYOUT_METHODS, upgradeState } from '../../../domain/payouts/index.js';
import { createPayoutBatch, deletePayoutBatch, type ProcessResult } from '../../../application/payouts/processes.js';
import { listTravelEntries } from '../../../../projections/travel-entries/queries.js';
import { getPayoutBatch, listPayoutBatches, type BatchRow } from '../../../../projections/payout-batches/queries.js';
import { awaitProjection, commandContext, etagOf, ifMatchOf } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { EDIT_ERRORS, errorResponses, IdParams, PageQuery, StringEnum, Uuid } from '../../schemas/common.js';
import { CursorQuery, listPageOf, listResponse, pagingOf } from '../../cursor.js';
import { presentTravelEntry } from '../travel-entries/present.js';
import type { Position } from '../../../eventstore/port.js';
import { comparePositions } from '../../../eventstore/port.js';
import { TRAVEL_ENTRY_CATEGORY } from '../../../domain/travel-entries/index.js';
import { payoutBatchesProjection } from '../../../../projections/payout-batches/projection.js';
import { travelEntriesProjection } from '../../../../projections/travel-entries/projection.js';
import { ref } from '../../schemas/ref.js';
import { TravelEntryPage } from '../travel-entries/schemas.js';

const tags = ['Payouts'];
export const PayoutMethod = StringEnum(PAYOUT_METHODS, { $id: 'PayoutMethod' });

const RejectedEntry = Type.Object({
  entryId: Uuid,
  code: Type.String({
    description:
      'ALREADY_PAID_OUT (payoutBatchId names the batch that holds it), NOT_FOUND, NOT_REACHED (the process stopped first), or the refusal of the entry, e.g. INVALID_TRANSITION.',
  }),
  reason: Type.String(),
  payoutBatchId: Type.Optional(Type.Union([Uuid, Type.Null()])),
});

export const PayoutBatch = Type.Object(
  {
    id: Uuid,
    status: StringEnum(PAYOUT_BATCH_STATUSES, {
      description:
        'Processing: entries are being reserved (the batch settles by itself, also after a crash); pay nothing yet. ' +
        'Created: settled, entryIds are paid in this batch. Rejected: settled, no entry could be taken. ' +
        'Deleted: the batch was reversed; its entries are no longer paid out.',
    }),
    entryIds: Type.Array(Uuid, {
      description: 'The entries paid out in this batch (only these are to be paid); empty while Processing and for Rejected.',
    }),
    requestedEntryIds: Type.Array(Uuid, { description: 'The entries the batch was asked for.' }),
    rejectedEntries: Type.Array(RejectedEntry, { description: 'Requested entries the batch did not take, each with why.' }),
    settledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    payoutMethod: ref(PayoutMethod),
    payoutDate: Type.String({ format: 'date' }),
    createdAt: Type.String({ format: 'date-time' }),
    deletedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    deletionReason: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'PayoutBatch' },
);

const CreateBody = Type.Object(
  {
    entryIds: Type.Array(Uuid, { minItems: 1, maxItems: 500 }),
    payoutMethod: ref(PayoutMethod),
    payoutDate: Type.String({ format: 'date' }),
  },
  { additionalProperties: false },
);
const DeleteQuery = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false });

const present = (r: BatchRow) => {
  const { entryIds, takenEntryIds, rejectedEntries, reversedEntryIds, reversedAt: _reversedAt, ...rest } = r.batch;
  return {
    ...rest,
    status: r.status,
    entryIds: takenEntryIds ?? (r.status === 'Deleted' ? (reversedEntryIds ?? []) : []),
    requestedEntryIds: entryIds,
    rejectedEntries,
  };
};
const latest = (ps: Position[]): Position | undefined =>
  ps.reduce<Position | undefined>((a, p) => (!a || comparePositions(p, a) > 0 ? p : a), undefined);

export const payoutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, store } = app.deps;

  /**
   * The batch as the process left it (its own folded state, never a read model that may still be
   * behind), after waiting for the read models to hold what it wrote (read-your-writes).
   */
  async function processedRow(r: ProcessResult): Promise<BatchRow> {
    await awaitProjection(app, payoutBatchesProjection.name, latest(r.steps.positions.batch));
    await awaitProjection(app, travelEntriesProjection.name, latest(r.steps.positions.entries));
    const state = upgradeState(r.batch);
    if (state.kind === 'Absent') throw notFound('Payout batch');
    return { batch: state.batch, status: state.kind, revision: r.steps.batchRevision };
  }

  app.get(
    '/payouts/ready',
    {
      config: { scope: 'read', personalData: { resourceType: TRAVEL_ENTRY_CATEGORY } },
      schema: {
        tags,
        summary: 'Entries ready for payout (approved, not paid out)',
        querystring: Type.Object({ ...PageQuery, ...CursorQuery }, { additionalProperties: false }),
        response: { 200: ref(TravelEntryPage), ...errorResponses() },
      },
    },
    async (request) => {
      const paging = pagingOf('payouts/ready', request);
      const r = await listTravelEntries(db, principalOf(request).tenantId, { page: paging.request, readyForPayout: true });
      return listResponse(paging, r.items.map(presentTravelEntry), r);
    },
  );

  app.post(
    '/payouts/batches',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Pay out entries in a batch: each is marked paid out and locked',
        body: CreateBody,
        response: {
          201: ref(PayoutBatch),
          ...errorResponses(
            'ALREADY_PAID_OUT',
            'INVALID_TRANSITION',
            'PAYOUT_BATCH_REJECTED',
            'CONCURRENCY_CONFLICT',
            'IDEMPOTENCY_KEY_IN_USE',
            'IDEMPOTENCY_KEY_REUSED',
          ),
        },
      },
    },
    async (request, reply) => {
      const batchId = randomUUID();
      const ctx = commandContext(request);
      const { entryIds, payoutMethod, payoutDate } = request.body;
      const r = await createPayoutBatch(
        store,
        { type: 'CreatePayoutBatch', data: { batchId, entryIds, payoutMethod, payoutDate } },
        ctx,
        request.id,
      );
      const row = await processedRow(r);
      if (row.status !== 'Created') {
        // Every entry was lost to another batch (or the batch was deleted meanwhile): the batch is
        // kept, as the history of the attempt, but the request failed.
        const { rejectedEntries } = present(row);
        throw new DomainError(
          'PAYOUT_BATCH_REJECTED',
          `No entry could be paid out in this batch: ${rejectedEntries.map((e) => e.reason).join(' ')}`,
          undefined,
          { batchId, batchStatus: row.status, rejectedEntries },
        );
      }
      reply.code(201).header('Location', `/api/v1/payouts/batches/${batchId}`).header('ETag', etagOf(row.revision));
      return present(row);
    },
  );

  app.get(
    '/payouts/batches',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Payout batch history, newest first (with updatedSince: the batches changed since, in the order of their changes)',
        querystring: Type.Object(
          {
            ...PageQuery,
            ...CursorQuery,
            updatedSince: Type.Optional(
              Type.String({
                format: 'date-time',
                description:
                  'Only batches settled or deleted at or after this instant (incremental sync: a deletion changes an old batch), ' +
                  'in the order the changes were recorded, so paging with cursors misses no batch changed meanwhile.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: listPageOf(ref(PayoutBatch), 'PayoutBatchPage'), ...errorResponses() },
      },
    },
    async (request) => {
      const paging = pagingOf('payouts/batches', request);
      const r = await listPayoutBatches(db, principalOf(request).tenantId, {
        page: paging.request,
        updatedSince: request.query.updatedSince,
      });
      return listResponse(paging, r.items.map(present), r);
    },
  );

  app.get(
    '/payouts/batches/:id',
    {
      config: { scope: 'read' },
      schema: { tags, summary: 'A payout batch', params: IdParams, response: { 200: ref(PayoutBatch), ...errorResponses('NOT_FOUND') } },
    },
    async (request, reply) => {
      const row = await getPayoutBatch(db, principalOf(request).tenantId, request.params.id);
      if (!row) throw notFound('Payout batch');
      reply.header('ETag', etagOf(row.revision));
      return present(row);
    },
  );

  app.delete(
    '/payouts/batches/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a batch: reverses it, its entries are no longer paid out',
        params: IdParams,
        querystring: DeleteQuery,
        response: {
          200: ref(PayoutBatch),
          ...errorResponses(...EDIT_ERRORS, 'PAYOUT_BATCH_DELETED', 'PAYOUT_BATCH_REJECTED', 'PAYOUT_REVERSAL_INCOMPLETE'),
        },
      },
    },
    async (request, reply) => {
      const ctx = commandContext(request);
      const r = await deletePayoutBatch(
        store,
        { type: 'DeletePayoutBatch', data: { batchId: request.params.id, reason: request.query.reason ?? null } },
        ctx,
        request.id,
        ifMatchOf(request),
      );
      const row = await processedRow(r);
      reply.header('ETag', etagOf(row.revision));
      return present(row);
    },
  );
};
