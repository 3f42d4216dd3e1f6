// The machine a run was measured on, printed at the top of every run (and copied to docs/benchmarks.md).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { DATABASE_URL, serverVersion } from './db.js';
import { loadClient } from './load.js';

export async function describeMachine(): Promise<string> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const pgVersion = await serverVersion().catch((err: unknown) => `unreachable (${String(err)})`);
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  return [
    `Machine: ${os.availableParallelism()} CPUs (nproc), ${model}; ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory; load average ${load}`,
    `Node ${process.version}; PostgreSQL ${pgVersion} at ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}; HTTP load: ${loadClient().description}`,
  ].join('\n');
}
