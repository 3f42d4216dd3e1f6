// `audit verify [--tenant T] [--stream S]`: checks hash chains (docs/auditing.md). One stream, or
// every stream of a tenant, or the whole store; the answer names the first broken link of each
// broken stream. `ok` is false when any link is broken (events older than the chain are counted as
// unhashed, never as valid).
import { DomainError } from '../domain/errors.js';
import { verifyStore, verifyStream } from '../application/audit/verify-store.js';
import { getTenant } from '../tenancy/tenants.js';
import { optStr, optUuidArg, type Operation } from './operation.js';

export const auditOperations: Record<string, Operation> = {
  'audit verify': async ({ db, store }, args, progress) => {
    const tenantId = optUuidArg(args, 'tenant', 'a tenant id');
    // A mistyped tenant would verify no stream and answer `ok`: an auditor's script would pass
    // having checked nothing.
    if (tenantId !== undefined && !(await getTenant(db, tenantId))) throw new DomainError('NOT_FOUND', `Tenant ${tenantId} was not found.`);
    const streamId = optStr(args, 'stream');
    if (streamId !== undefined) {
      const report = await verifyStream(store, streamId, tenantId);
      if (!report) throw new DomainError('NOT_FOUND', `Stream ${streamId} was not found${tenantId ? ' in that tenant' : ''}.`);
      return { ok: report.status !== 'broken', ...report };
    }
    return verifyStore(store, { tenantId, onProgress: (n) => progress(n, n, 'verified') });
  },
};
