// HTTP load over loopback with autocannon, in a child process (see load-worker.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadSpec {
  /** http://127.0.0.1:PORT */
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Taken in turn, one per request: overrides of path, body and Authorization header. */
  variants?: { path?: string; body?: string; authorization?: string }[];
  connections: number;
  seconds: number;
}

export interface LoadResult {
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number; mean: number };
}

const worker = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
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
