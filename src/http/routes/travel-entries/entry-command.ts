// Runs one travel-entry command for a route: looks up the tenant and the shell facts the command
// needs, checks it (core verdict and rate problems together), then goes through the write path.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CommandContext } from '../../../domain/decider.js';
import { travelEntryDecider, streamName, type TravelEntryCommand, type TravelEntryState } from '../../../domain/travel-entries/index.js';
import type { Tenant } from '../../../tenancy/tenants.js';
import { RateErrors } from '../../../application/travel-entries/conversions.js';
import { checkEntryCommand } from '../../../application/travel-entries/check.js';
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

export async function runEntryCommand(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  entryId: string,
  build: (facts: Facts) => Promise<TravelEntryCommand>,
  opts: { create?: boolean; ctx?: CommandContext; tenant?: Tenant } = {},
) {
  const tenant = opts.tenant ?? principalOf(request).tenant;
  const ctx = opts.ctx ?? commandContext(request);
  const result = await runCommand(app, request, reply, PROJECTION, {
    streamId: streamName(entryId),
    decider: travelEntryDecider,
    context: ctx,
    ...(opts.create ? { mustNotExist: true } : { mustExist: { notFoundMessage: 'Travel entry was not found.' } }),
    command: async (state) => {
      const facts: Facts = { tenant, state, ctx, rateErrors: new RateErrors(), lookupErrors: {} };
      const command = await build(facts);
      checkEntryCommand(command, state, ctx, facts.rateErrors, facts.lookupErrors);
      return command;
    },
  });
  if (result.state.kind !== 'Existing') throw new Error('a travel-entry command left no entry');
  return presentTravelEntry(result.state.entry);
}
