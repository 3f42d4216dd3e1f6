// Runs one travel-entry write for a route (If-Match, ETag, read-your-writes through runCommand) and
// presents the entry. The write itself comes from the application service (TravelEntryWrites).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TravelEntryCommand } from '../../../domain/travel-entries/index.js';
import type { EntryWrite, Facts } from '../../../application/travel-entries/writes.js';
import { commandContext, runCommand } from '../../command-support.js';
import { principalOf } from '../../plugins/auth.js';
import { presentTravelEntry } from './present.js';
import { travelEntriesProjection } from '../../../../projections/travel-entries/projection.js';
import { withReferenceNames } from '../../../../projections/travel-entries/reference-names.js';

export const PROJECTION = travelEntriesProjection.name;
export type { Facts };

export async function runEntryWrite(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, write: EntryWrite) {
  const result = await runCommand(app, request, reply, PROJECTION, write);
  if (result.state.kind !== 'Existing') throw new Error('a travel-entry command left no entry');
  // With the current names of its vehicle and cost centers, as a read shows it: those the write's
  // own checks found a moment ago where it looked them up, else read now.
  const names = write.referenceNames?.();
  const [entry] = names
    ? [{ ...result.state.entry, referenceNames: names }]
    : await withReferenceNames(app.deps.db, principalOf(request).tenantId, [result.state.entry]);
  return presentTravelEntry(entry!);
}

/** A command on one entry built in the route (child rows, attachments, cancel): the caller's context and tenant. */
export function runEntryCommand(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  entryId: string,
  build: (facts: Facts) => Promise<TravelEntryCommand>,
  opts: { beforeAppend?: EntryWrite['beforeAppend'] } = {},
) {
  const write = app.deps.travelEntries.command(entryId, commandContext(request), principalOf(request).tenant, build, opts);
  return runEntryWrite(app, request, reply, write);
}
