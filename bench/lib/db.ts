// A fresh schema on the machine's PostgreSQL for one benchmark, migrated, dropped afterwards (also
// on Ctrl-C and kill). Mirrors test/helpers/db.ts without importing test code.
import { createHash, randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchSchema {
  schema: string;
  handle: DatabaseHandle;
  /** A plain pg pool on the same schema (baselines, bulk seeding). */
  pool(max: number): pg.Pool;
  drop(): Promise<void>;
}

const live = new Set<string>();

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function dropSchema(schema: string): Promise<void> {
  await admin((c) => c.query(`drop schema if exists ${schema} cascade`));
  live.delete(schema);
}

let interruptHandled = false;
function dropOnInterrupt(): void {
  if (interruptHandled) return;
  interruptHandled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: dropping ${[...live].join(', ') || 'no schema'}\n`);
      void Promise.allSettled([...live].map(dropSchema)).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

// A schema's name says which process on which machine made it (`bench_<host>_<pid>_<random>`), so a
// later run can drop what a benchmark killed with -9 (or a crash) left behind: the schemas of this
// machine whose process is gone. Another machine's, and older unnamed ones, are left alone. "This
// machine" is the host name and the process-id namespace together: two containers with one host
// name but their own process ids must not take each other's live benchmarks for dead.
const pidNamespace = (): string => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return ''; // not Linux: the host name alone
  }
};
const HOST = createHash('sha256').update(`${hostname()} ${pidNamespace()}`).digest('hex').slice(0, 8);
const OWN_NAME = new RegExp(`^bench_${HOST}_(\\d+)_[0-9a-f]+$`);

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
};

let swept = false;
async function dropOrphans(): Promise<void> {
  if (swept) return;
  swept = true;
  const { rows } = await admin((c) => c.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like 'bench\\_%'`));
  const orphans = rows
    .map((r) => r.name)
    .filter((name) => {
      const pid = OWN_NAME.exec(name)?.[1];
      return pid !== undefined && !processAlive(Number(pid));
    });
  if (orphans.length > 0) process.stderr.write(`dropping schemas of benchmarks that died: ${orphans.join(', ')}\n`);
  for (const name of orphans) await dropSchema(name);
}

export async function freshSchema(opts: { poolSize?: number; migrate?: boolean } = {}): Promise<BenchSchema> {
  dropOnInterrupt();
  await dropOrphans();
  const schema = `bench_${HOST}_${process.pid}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create schema ${schema}`));
  live.add(schema);
  const pools: pg.Pool[] = [];
  let handle: DatabaseHandle | undefined;
  const drop = async (): Promise<void> => {
    await handle?.close().catch(() => undefined);
    await Promise.allSettled(pools.map((p) => p.end()));
    await dropSchema(schema);
  };
  try {
    handle = await openDatabase({ databaseUrl: DATABASE_URL, dataDir: 'memory://', searchPath: schema, poolSize: opts.poolSize ?? 20 });
    if (opts.migrate !== false) await migrateToLatest(handle.db, schema);
  } catch (err) {
    await drop();
    throw err;
  }
  return {
    schema,
    handle,
    pool(max) {
      const p = new pg.Pool({ connectionString: DATABASE_URL, max, options: `-c search_path=${schema}` } as pg.PoolConfig);
      pools.push(p);
      return p;
    },
    drop,
  };
}

/** Runs `fn` on a fresh schema and always drops it. */
export async function withSchema<T>(opts: { poolSize?: number }, fn: (s: BenchSchema) => Promise<T>): Promise<T> {
  const s = await freshSchema(opts);
  try {
    return await fn(s);
  } finally {
    await s.drop();
  }
}

export async function serverVersion(): Promise<string> {
  return admin(async (c) => (await c.query<{ server_version: string }>('show server_version')).rows[0]!.server_version);
}
