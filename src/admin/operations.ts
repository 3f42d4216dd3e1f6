// Operator operations, shared by the CLI (direct mode) and the loopback admin API (when a running
// server holds the embedded database). Each takes plain arguments and returns plain JSON.
import { DomainError, validationError } from '../domain/errors.js';
import { createApiKey, parseScopes, revokeApiKey } from '../tenancy/api-keys.js';
import { createTenant, parseCustomFieldDefinitions, parseWorkflow, setCustomFields, setWorkflow } from '../tenancy/tenants.js';
import { migrateToLatest } from '../infra/migrate.js';
import type { Db } from '../infra/database.js';
import type { EventStore } from '../eventstore/port.js';
import type { ProjectionRunner } from '../../projections/runner.js';
import { extraOperations } from './extra-operations.js';

export interface OperationContext {
  db: Db;
  store: EventStore;
  runner: ProjectionRunner;
}

export type Args = Record<string, string | boolean | undefined>;
export type Progress = (done: number, total: number, label?: string) => void;
export type Operation = (ctx: OperationContext, args: Args, progress: Progress) => Promise<unknown>;

const str = (args: Args, key: string): string => {
  const v = args[key];
  if (typeof v !== 'string' || v.trim() === '') throw validationError({ [key]: [`--${key} is required.`] });
  return v;
};
const optStr = (args: Args, key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);

export const operations: Record<string, Operation> = {
  'tenant create': async ({ db }, args) => {
    const t = await createTenant(db, { name: str(args, 'name'), country: str(args, 'country') });
    return { tenantId: t.id, name: t.name, country: t.country, baseCurrency: t.baseCurrency };
  },
  'tenant set-workflow': async ({ db }, args) => {
    const tenantId = str(args, 'tenant');
    if (args.none === true) return { tenantId, workflow: (await setWorkflow(db, tenantId, null)).workflow };
    let steps: unknown;
    try {
      steps = JSON.parse(str(args, 'steps'));
    } catch {
      throw validationError({ steps: ['--steps must be JSON, e.g. \'[{"approverIds":["<employee uuid>"]}]\'.'] });
    }
    return { tenantId, workflow: (await setWorkflow(db, tenantId, parseWorkflow(steps))).workflow };
  },
  'tenant set-custom-fields': async ({ db }, args) => {
    const tenantId = str(args, 'tenant');
    let definitions: unknown;
    try {
      definitions = JSON.parse(str(args, 'definitions'));
    } catch {
      throw validationError({ definitions: ['--definitions must be JSON, e.g. \'[{"key":"costCode","type":"text","required":true}]\'.'] });
    }
    return { tenantId, customFields: (await setCustomFields(db, tenantId, parseCustomFieldDefinitions(definitions))).customFields };
  },
  'api-key create': async ({ db }, args) => {
    const created = await createApiKey(db, { tenantId: str(args, 'tenant'), name: optStr(args, 'name'), scopes: parseScopes(optStr(args, 'scopes')) });
    return { apiKeyId: created.apiKeyId, key: created.key, prefix: created.prefix, name: created.name, scopes: created.scopes };
  },
  'api-key revoke': async ({ db }, args) => revokeApiKey(db, str(args, 'id')),
  'projections rebuild': async ({ runner }, args, progress) => {
    const names = runner.projections.map((p) => p.name);
    const only = optStr(args, 'name');
    if (only !== undefined && !names.includes(only)) {
      throw new DomainError('PROJECTION_NOT_FOUND', 404, `Unknown projection "${only}"; known: ${names.join(', ') || 'none'}.`);
    }
    const rebuilt = [];
    for (const name of only ? [only] : names) {
      const r = await runner.rebuild(name, (done, total) => progress(done, total, name));
      rebuilt.push({ name, events: r.events, seconds: Math.round(r.seconds * 1000) / 1000, eventsPerSecond: r.seconds > 0 ? Math.round(r.events / r.seconds) : null });
    }
    return { rebuilt };
  },
  'projections status': async ({ runner }) => ({ projections: await runner.status() }),
  migrate: async ({ db }) => migrateToLatest(db),
  ...extraOperations,
};
