// A PostgreSQL cluster of a test's own, for tests that stop, restart or freeze the database: never
// the shared server. Created with pg_createcluster on a free port, loopback only, trust auth;
// dropped in teardown (also after a failure). Where that cannot be done, `createChaosCluster`
// returns the reason, for the test's skip message.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const VERSION = '15';

export interface ChaosCluster {
  readonly name: string;
  readonly port: number;
  /** postgres://postgres@127.0.0.1:PORT/DB */
  url(database?: string): string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Ends every session but the caller's, as pg_terminate_backend does after an admin's decision. */
  terminateBackends(database: string): Promise<number>;
  /** SIGSTOP to the postmaster and every backend: the server stops answering without closing anything. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  drop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function which(cmd: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${cmd}`]).then(
    () => true,
    () => false,
  );
}

/** The cluster, or why there is none (the caller skips with that message). */
export async function createChaosCluster(): Promise<ChaosCluster | string> {
  for (const cmd of ['pg_createcluster', 'pg_ctlcluster', 'pg_dropcluster']) {
    if (!(await which(cmd))) return `${cmd} is not available (postgresql-common): these tests need a PostgreSQL cluster of their own`;
  }
  if (process.getuid?.() !== 0) return "pg_createcluster needs root to create a cluster of the test's own";
  if (!existsSync(`/usr/lib/postgresql/${VERSION}/bin/postgres`)) return `PostgreSQL ${VERSION} server binaries are not installed`;
  const name = `travelog_chaos_${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  try {
    await run('pg_createcluster', [VERSION, name, '--port', String(port), '--', '--auth=trust'], { timeout: 120_000 });
    // Loopback only (pg_createcluster's -o quoting differs between versions; the file is plain).
    appendFileSync(`/etc/postgresql/${VERSION}/${name}/postgresql.conf`, "\nlisten_addresses = '127.0.0.1'\n");
  } catch (err) {
    return `pg_createcluster failed: ${(err as Error).message}`;
  }
  const dataDir = `/var/lib/postgresql/${VERSION}/${name}`;
  const ctl = (action: string, ...extra: string[]) =>
    run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, action, ...extra], { timeout: 120_000 });
  const pids = async (): Promise<number[]> => {
    if (!existsSync(`${dataDir}/postmaster.pid`)) return [];
    const postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    const children = await run('pgrep', ['-P', String(postmaster)]).then(
      (r) => r.stdout.split('\n').filter(Boolean).map(Number),
      () => [],
    );
    return [postmaster, ...children];
  };
  const signal = async (sig: 'SIGSTOP' | 'SIGCONT'): Promise<void> => {
    for (const pid of await pids()) {
      try {
        process.kill(pid, sig);
      } catch {
        // ended meanwhile
      }
    }
  };
  let frozen = false;
  // A test runner's timeout ends the test with a signal, and teardowns do not run then: drop the
  // cluster on the way out all the same, so no stray PostgreSQL outlives the test.
  const dropNow = (): void => {
    try {
      if (frozen) {
        const postmaster = readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]!;
        process.kill(Number(postmaster), 'SIGCONT');
        execFileSync('pkill', ['-CONT', '-P', postmaster], { stdio: 'ignore' });
      }
    } catch {
      // nothing to thaw
    }
    try {
      execFileSync('pg_dropcluster', ['--stop', VERSION, name], { timeout: 60_000, stdio: 'ignore' });
    } catch {
      // best effort
    }
  };
  const onSignal = (sig: NodeJS.Signals): void => {
    dropNow();
    process.kill(process.pid, sig);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const cluster: ChaosCluster = {
    name,
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await ctl('start');
    },
    async stop() {
      await ctl('stop', '-m', 'fast');
    },
    async terminateBackends(database) {
      const c = new pg.Client({ connectionString: cluster.url() });
      await c.connect();
      try {
        const r = await c.query(
          'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [database],
        );
        return r.rows[0].n as number;
      } finally {
        await c.end();
      }
    },
    async freeze() {
      frozen = true;
      await signal('SIGSTOP');
    },
    async thaw() {
      frozen = false;
      await signal('SIGCONT');
    },
    async drop() {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      if (frozen) await cluster.thaw();
      await run('pg_dropcluster', ['--stop', VERSION, name], { timeout: 120_000 }).catch(async () => {
        await ctl('stop', '-m', 'immediate').catch(() => undefined);
        await run('pg_dropcluster', [VERSION, name], { timeout: 120_000 }).catch(() => undefined);
      });
    },
  };
  return cluster;
}
