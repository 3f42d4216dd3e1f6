// A minimal HTTPS endpoint for the webhook benchmark, in a child process of its own
// (https-sink-worker.ts): a self-signed certificate made with the openssl CLI (names 127.0.0.1),
// 204 for every request, and each request's Service-Event-Id with its arrival time (Date.now() in
// the sink's process: the wall clock is the one clock two processes share). Mirrors test/helpers/https-receiver.ts without
// importing test code, and without recording bodies.
import { execFile, fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface HttpsSink {
  url: string;
  /** The sink's process (its CPU time is read from /proc by the webhook benchmark). */
  pid: number | undefined;
  ca: string;
  count(): number;
  waitForCount(n: number, timeoutMs: number): Promise<void>;
  /** Calls `fn` with the Service-Event-Id and arrival time (epoch ms) of every request; returns an unsubscribe. */
  onRequest(fn: (eventId: string, at: number) => void): () => void;
  close(): Promise<void>;
}

const worker = fileURLToPath(new URL('./https-sink-worker.ts', import.meta.url));

export async function startHttpsSink(): Promise<HttpsSink> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-sink-'));
  let cert: string;
  let key: string;
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=bench-sink',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    cert = await readFile(join(dir, 'cert.pem'), 'utf8');
    key = await readFile(join(dir, 'key.pem'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const child = fork(worker, [JSON.stringify({ cert, key })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let received = 0;
  const listeners = new Set<(eventId: string, at: number) => void>();
  const waiters = new Set<() => void>();
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { port?: number; arrivals?: [string, number][] }) => {
      if (m.port !== undefined) resolve(m.port);
      if (m.arrivals) {
        received += m.arrivals.length;
        for (const [id, at] of m.arrivals) for (const l of listeners) l(id, at);
        for (const w of waiters) w();
      }
    });
  });
  return {
    url: `https://127.0.0.1:${port}/`,
    pid: child.pid,
    ca: cert,
    count: () => received,
    waitForCount(n, timeoutMs) {
      if (received >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`sink got ${received} of ${n} requests in ${timeoutMs} ms`));
        }, timeoutMs);
        const check = (): void => {
          if (received < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    onRequest(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ close: true });
      await exited;
    },
  };
}
