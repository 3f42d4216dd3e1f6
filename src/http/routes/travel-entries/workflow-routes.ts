// Workflow actions: submit, approve, reject, request-changes, cancel. The acting employee is named
// in the body (approverId) and recorded in the event's actor; eligibility is the core's decision
// from the facts looked up here (active, not archived employees of this tenant).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { commandContext } from '../../command-support.js';
import { EDIT_ERRORS, errorResponses, IdParams, ProblemSchema } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { runEntryCommand, runEntryWrite } from './entry-command.js';
import { principalOf } from '../../plugins/auth.js';
import { ApproverBody, CancelBody, ReasonBody, TravelEntry } from './schemas.js';

const tags = ['Travel entries'];
const entryRef = ref(TravelEntry);
const responses = {
  200: entryRef,
  ...errorResponses(...EDIT_ERRORS, 'INVALID_TRANSITION', 'ENTRY_LOCKED', 'NOT_AN_ELIGIBLE_APPROVER'),
};

export const travelEntryWorkflowRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { travelEntries } = app.deps;

  app.post(
    '/travel-entries/:id/submit',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Submit for approval (approved at once when the company has no workflow with eligible approvers)',
        params: IdParams,
        response: responses,
      },
    },
    async (request, reply) =>
      runEntryWrite(app, request, reply, travelEntries.submit(commandContext(request), principalOf(request).tenant, request.params.id)),
  );

  const decision = (path: string, summary: string, type: 'ApproveTravelEntry' | 'RejectTravelEntry' | 'RequestTravelEntryChanges') => {
    app.post(
      `/travel-entries/:id/${path}`,
      {
        config: { scope: 'write' },
        schema: {
          tags,
          summary,
          params: IdParams,
          body: type === 'ApproveTravelEntry' ? ApproverBody : ReasonBody,
          response: { ...responses, 403: ref(ProblemSchema) },
        },
      },
      async (request, reply) => {
        // Either body schema: both name the approver; approve adds a comment, the others a reason.
        const body: { approverId: string; comment?: string | null; reason?: string | null } = request.body;
        // The approver acts: recorded in the events' actor.
        const ctx = commandContext(request, body.approverId);
        const tenant = principalOf(request).tenant;
        return runEntryWrite(app, request, reply, travelEntries.decide(ctx, tenant, request.params.id, { type, ...body }));
      },
    );
  };
  decision('approve', 'Approve the current workflow step (the last step approves the entry)', 'ApproveTravelEntry');
  decision('reject', 'Reject the entry', 'RejectTravelEntry');
  decision('request-changes', 'Send the entry back to its employee for changes', 'RequestTravelEntryChanges');

  app.post(
    '/travel-entries/:id/cancel',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Cancel the entry (the body with a reason is optional)',
        params: IdParams,
        body: CancelBody,
        response: responses,
        'x-optional-body': true,
      },
      // The body is optional: no body (or `null`) means no reason.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request, reply) =>
      runEntryCommand(app, request, reply, request.params.id, async () => ({
        type: 'CancelTravelEntry',
        data: { entryId: request.params.id, reason: request.body.reason ?? null },
      })),
  );
};
