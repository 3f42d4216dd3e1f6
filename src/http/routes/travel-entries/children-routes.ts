// Child rows of an entry: expenses, per diems and cost-center allocations, one at a time. Each
// change is its own audit record (and an entry.updated webhook); the response is the whole entry.
// The three kinds share one shape of routes, generated from a small description each. An expense's
// currency and a per diem's country and currency must be in the company's enabled lists (an
// allocation names neither).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { perDiemAdvanceDate, type TravelEntryCommand } from '../../../domain/travel-entries/index.js';
import { allocationFields, expenseDraft, perDiemDraft } from '../../../application/travel-entries/drafts.js';
import { addChildRowEnabledListErrors } from '../../../application/travel-entries/writes.js';
import { ref } from '../../schemas/ref.js';
import { AllocationInput, ExpenseInput, PerDiemInput, TravelEntry } from './schemas.js';
import { EDIT_ERRORS, errorResponses, Uuid } from '../../schemas/common.js';
import type { ErrorCode } from '../../../domain/error-codes.js';
import { validationError } from '../../../domain/errors.js';
import { runEntryCommand, type Facts } from './entry-command.js';

const tags = ['Travel entries'];
const entryRef = ref(TravelEntry);
const EntryParams = Type.Object({ id: Uuid }, { additionalProperties: false });
const ChildParams = Type.Object({ id: Uuid, childId: Uuid }, { additionalProperties: false });

interface ChildKind<I extends TSchema, R> {
  path: string;
  noun: string;
  /** The named request schema of one row. */
  input: I;
  /** The row as the core takes it (with the shell's facts, e.g. exchange rates); `childId` on a change. */
  row: (body: Static<I>, f: Facts, childId?: string) => Promise<R>;
  add: (entryId: string, row: R) => TravelEntryCommand;
  change: (entryId: string, childId: string, row: R) => TravelEntryCommand;
  remove: (entryId: string, childId: string) => TravelEntryCommand;
  /** Codes this kind answers besides every edit's. */
  codes?: ErrorCode[];
}

function childRoutes<I extends TSchema, R>(app: FastifyInstance, k: ChildKind<I, R>): void {
  const responses = errorResponses(...EDIT_ERRORS, 'ENTRY_LOCKED', 'EXCHANGE_RATE_UNAVAILABLE', ...(k.codes ?? []));
  app.post<{ Params: { id: string }; Body: Static<I> }>(
    `/travel-entries/:id/${k.path}`,
    {
      config: { scope: 'write' },
      schema: { tags, summary: `Add ${k.noun}`, params: EntryParams, body: ref(k.input), response: { 201: entryRef, ...responses } },
    },
    async (request, reply) => {
      const entry = await runEntryCommand(app, request, reply, request.params.id, async (f) =>
        k.add(request.params.id, await k.row(request.body, f)),
      );
      reply.code(201);
      return entry;
    },
  );
  app.put<{ Params: { id: string; childId: string }; Body: Static<I> }>(
    `/travel-entries/:id/${k.path}/:childId`,
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: `Change ${k.noun} (omitted optional fields are cleared)`,
        params: ChildParams,
        body: ref(k.input),
        response: { 200: entryRef, ...responses },
      },
    },
    async (request, reply) => {
      refuseOtherRowId((request.body as { id?: string | null }).id, request.params.childId);
      return runEntryCommand(app, request, reply, request.params.id, async (f) =>
        k.change(request.params.id, request.params.childId, await k.row(request.body, f, request.params.childId)),
      );
    },
  );
  app.delete<{ Params: { id: string; childId: string } }>(
    `/travel-entries/:id/${k.path}/:childId`,
    {
      config: { scope: 'write' },
      schema: { tags, summary: `Remove ${k.noun}`, params: ChildParams, response: { 200: entryRef, ...responses } },
    },
    async (request, reply) =>
      runEntryCommand(app, request, reply, request.params.id, async () => k.remove(request.params.id, request.params.childId)),
  );
}

/**
 * A changed row's body may carry its id, as the row was read, but not another row's: the path
 * names the row changed, and an id naming a different one is a client's mix-up, not to be ignored.
 */
function refuseOtherRowId(sent: string | null | undefined, childId: string): void {
  if (sent === undefined || sent === null || sent.toLowerCase() === childId.toLowerCase()) return;
  throw validationError({ id: [`Must be the id of the row in the path (${childId.toLowerCase()}), or absent.`] });
}

export const travelEntryChildRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  childRoutes(app, {
    path: 'expenses',
    noun: 'an expense',
    input: ExpenseInput,
    row: (body, f) => {
      addChildRowEnabledListErrors(f, body);
      return expenseDraft(db, f.tenant.country, body, 'body', f.rateErrors);
    },
    add: (entryId, expense) => ({ type: 'AddExpense', data: { entryId, expense } }),
    change: (entryId, expenseId, expense) => ({ type: 'ChangeExpense', data: { entryId, expenseId, expense } }),
    remove: (entryId, expenseId) => ({ type: 'RemoveExpense', data: { entryId, expenseId } }),
  });
  childRoutes(app, {
    path: 'per-diems',
    noun: 'a per diem (computed by the statutory engine as a one-leg itinerary)',
    input: PerDiemInput,
    codes: ['PER_DIEM_RATE_UNAVAILABLE'],
    row: (body, f, childId) => {
      addChildRowEnabledListErrors(f, body);
      return perDiemDraft(db, f.tenant.country, body, 'body', f.rateErrors, {
        ...app.deps.travelEntries.statutory(f),
        advancePaymentDate: f.state.kind === 'Existing' ? perDiemAdvanceDate(f.state.entry, f.ctx.now) : null,
        // A change sent as it was read keeps the row's figures (kept-statutory.ts); an added row has no id.
        rowId: childId ?? '',
      });
    },
    add: (entryId, perDiem) => ({ type: 'AddPerDiem', data: { entryId, perDiem } }),
    change: (entryId, perDiemId, perDiem) => ({ type: 'ChangePerDiem', data: { entryId, perDiemId, perDiem } }),
    remove: (entryId, perDiemId) => ({ type: 'RemovePerDiem', data: { entryId, perDiemId } }),
  });
  childRoutes(app, {
    path: 'cost-center-allocations',
    noun: 'a cost-center allocation',
    input: AllocationInput,
    row: async (body, f) => {
      Object.assign(f.lookupErrors, await app.deps.travelEntries.allocationErrors(f.tenant.id, body.costCenterId));
      return allocationFields(body);
    },
    add: (entryId, allocation) => ({ type: 'AddAllocation', data: { entryId, allocation } }),
    change: (entryId, allocationId, allocation) => ({ type: 'ChangeAllocation', data: { entryId, allocationId, allocation } }),
    remove: (entryId, allocationId) => ({ type: 'RemoveAllocation', data: { entryId, allocationId } }),
  });
};
