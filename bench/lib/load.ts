// HTTP load over loopback, in a child process: wrk where it is installed (the client issue 13
// measures with; load-wrk.ts), autocannon otherwise (load-worker.ts). BENCH_LOAD_CLIENT=wrk or
// autocannon chooses; a run names its client in its header line.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runWrk } from './load-wrk.js';

export type { LoadResult, LoadSpec } from './load-spec.js';
import type { LoadResult, LoadSpec } from './load-spec.js';

const worker = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

export type LoadClient = 'wrk' | 'autocannon';

/** wrk's version line, or undefined where it is not installed. */
function wrkVersion(): string | undefined {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return r.error ? undefined : /wrk (\S+)/.exec(r.stdout)?.[1];
}

let chosen: { client: LoadClient; description: string } | undefined;

/** The client every load of this run uses, chosen once. */
export function loadClient(): { client: LoadClient; description: string } {
  if (chosen) return chosen;
  const wanted = process.env.BENCH_LOAD_CLIENT;
  if (wanted !== undefined && wanted !== 'wrk' && wanted !== 'autocannon')
    throw new Error(`BENCH_LOAD_CLIENT must be wrk or autocannon, not ${wanted}`);
  const version = wanted === 'autocannon' ? undefined : wrkVersion();
  if (wanted === 'wrk' && version === undefined) throw new Error('BENCH_LOAD_CLIENT=wrk, but wrk is not installed (apt-get install wrk)');
  chosen =
    version === undefined
      ? { client: 'autocannon', description: `autocannon (${wanted === 'autocannon' ? 'chosen' : 'wrk is not installed'})` }
      : { client: 'wrk', description: `wrk ${version}, one thread` };
  return chosen;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(spec.origin)) throw new Error(`loopback only: ${spec.origin}`);
  return loadClient().client === 'wrk' ? runWrk(spec) : runAutocannon(spec);
}

function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const killer = setTimeout(() => child.kill('SIGKILL'), (spec.seconds + 60) * 1000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(killer);
      if (code !== 0) return reject(new Error(`load worker exited with ${code}`));
      try {
        resolve(JSON.parse(out) as LoadResult);
      } catch (err) {
        reject(err);
      }
    });
    child.stdin.end(JSON.stringify(spec));
  });
}

/** Successful responses per second. */
export const okRate = (r: LoadResult): number => r.ok / r.seconds;
