// `projections …` and `migrate`: the read side and the schema, on demand.
import { DomainError } from '../domain/errors.js';
import { migrateToLatest } from '../infra/migrate.js';
import { optStr, type Operation } from './operation.js';

export const projectionOperations: Record<string, Operation> = {
  'projections rebuild': async ({ runner }, args, progress) => {
    const names = runner.projections.map((p) => p.name);
    const only = optStr(args, 'name');
    if (only !== undefined && !names.includes(only)) {
      throw new DomainError('PROJECTION_NOT_FOUND', `Unknown projection "${only}"; known: ${names.join(', ') || 'none'}.`);
    }
    const rebuilt = [];
    for (const name of only ? [only] : names) {
      const r = await runner.rebuild(name, (done, total) => progress(done, total, name));
      rebuilt.push({
        name,
        events: r.events,
        seconds: Math.round(r.seconds * 1000) / 1000,
        eventsPerSecond: r.seconds > 0 ? Math.round(r.events / r.seconds) : null,
      });
    }
    return { rebuilt };
  },
  'projections status': async ({ runner }) => ({ projections: await runner.status() }),
  migrate: async ({ db }) => migrateToLatest(db),
};
