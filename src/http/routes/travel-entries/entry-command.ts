// Runs one travel-entry command for a route: the builder looks up what the command needs (the
// tenant, exchange rates, the employee) and returns it with those facts attached; the write path
// then decides once per attempt (the decider judges the facts with its own checks).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CommandContext } from '../../../domain/decider.js';
import {
  travelEntryDecider,
  streamName,
  type TravelEntryCommand,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../../domain/travel-entries/index.js';
import type { Tenant } from '../../../tenancy/tenants.js';
import { RateErrors } from '../../../application/travel-entries/conversions.js';
import { commandContext, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { presentTravelEntry } from './present.js';
import { travelEntriesProjection } from '../../../../projections/travel-entries/projection.js';

export const PROJECTION = travelEntriesProjection.name;

export interface Facts {
  tenant: Tenant;
  state: TravelEntryState;
  ctx: CommandContext;
  rateErrors: RateErrors;
  /** Field errors found by lookups (e.g. an unknown employee). */
  lookupErrors: Record<string, string[]>;
}

export interface EntryCommandOptions {
  create?: boolean;
  ctx?: CommandContext;
  tenant?: Tenant;
  /** After the decision, before the append (see CommandRequest.beforeAppend). */
  beforeAppend?: (events: TravelEntryEvent[], state: TravelEntryState) => Promise<TravelEntryEvent[] | void>;
}

export async function runEntryCommand(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  entryId: string,
  build: (facts: Facts) => Promise<TravelEntryCommand>,
  opts: EntryCommandOptions = {},
) {
  const tenant = opts.tenant ?? principalOf(request).tenant;
  const ctx = opts.ctx ?? commandContext(request);
  const result = await runCommand(app, request, reply, PROJECTION, {
    streamId: streamName(entryId),
    decider: travelEntryDecider,
    context: ctx,
    ...(opts.create ? { mustNotExist: true } : { mustExist: { notFoundMessage: 'Travel entry was not found.' } }),
    ...(opts.beforeAppend ? { beforeAppend: opts.beforeAppend } : {}),
    command: async (state): Promise<TravelEntryCommand> => {
      const facts: Facts = { tenant, state, ctx, rateErrors: new RateErrors(), lookupErrors: {} };
      const command = await build(facts);
      return { ...command, facts: { rateErrors: facts.rateErrors.errors, lookupErrors: facts.lookupErrors } };
    },
  });
  if (result.state.kind !== 'Existing') throw new Error('a travel-entry command left no entry');
  return presentTravelEntry(result.state.entry);
}
