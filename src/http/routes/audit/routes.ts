// GET /audit/verify?streamId=: checks one stream's hash chain and names its first broken link
// (audit scope; a stream of another tenant is a 404, like one that does not exist).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../../domain/errors.js';
import { verifyStream } from '../../../application/audit/verify-store.js';
import { principalOf } from '../../plugins/auth.js';
import { isUuid } from '../../../../projections/document-queries.js';
import { errorResponses } from '../../schemas/common.js';
import { ref } from '../../schemas/ref.js';
import { ChainVerification, VerifyQuery } from './schemas.js';

/** `travelEntry-{ID}` as streams are named: the id lower-case, as every write path stores it (validation.ts, x-lowercase). */
function canonicalStreamId(streamId: string): string {
  const dash = streamId.indexOf('-'); // the schema's pattern: a category of letters and digits, then '-'
  const id = streamId.slice(dash + 1);
  return isUuid(id) ? `${streamId.slice(0, dash + 1)}${id.toLowerCase()}` : streamId;
}

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/audit/verify',
    {
      config: { scope: 'audit' },
      schema: {
        tags: ['Audit'],
        summary: "Verify a stream's hash chain: the first broken link (revision, expected, found), or valid",
        description:
          'Recomputes every event’s hash (SHA-256 over the previous hash and the RFC 8785 canonical form of the event) and ' +
          'checks every link. Events recorded before the chain existed are counted as unhashed, never as valid. See docs/auditing.md.',
        querystring: VerifyQuery,
        response: { 200: ref(ChainVerification), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const report = await verifyStream(app.deps.store, canonicalStreamId(request.query.streamId), principalOf(request).tenantId);
      if (!report) throw notFound('Stream');
      return report;
    },
  );
};
