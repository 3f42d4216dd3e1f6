// Real processes for end-to-end tests of `npm start` and the CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Node itself with tsx's loader, not the tsx command: the command relays signals to a child and,
// when the child is slow to acknowledge one (a loaded machine), kills it and exits 143; the server
// should get SIGTERM directly, as it does in production.
export const NODE_WITH_TSX = ['--import', 'tsx'] as const;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_WITH_TSX, 'src/main/cli.ts', ...args], {
      cwd: ROOT,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(code === 0 ? stdout : stderr);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process has exited (without sending anything). */
  exited: Promise<number | null>;
  /** SIGKILL to the whole process group: tsx's launcher and the server it runs. */
  kill(): void;
}

/** tsx runs the program in a child of its own; a signal to the launcher alone can orphan the server. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Starts `src/main/start.ts` (what `npm start` runs) and resolves once it listens. */
export function startServer(env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_WITH_TSX, 'src/main/start.ts'], {
      cwd: ROOT,
      env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '0', LOG_LEVEL: 'info', RATES_FETCH: 'off', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a test can always take the whole tree down
    });
    const logs: string[] = [];
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new Error(`server did not start:\n${logs.join('')}`));
    }, timeoutMs);
    child.stderr.on('data', (d) => logs.push(String(d)));
    let buffered = '';
    child.stdout.on('data', (d) => {
      logs.push(String(d));
      buffered += d;
      const m = /"address":"(http:\/\/[^"]+)"/.exec(buffered);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          baseUrl: m[1]!,
          logs,
          exited,
          kill: () => killGroup(child, 'SIGKILL'),
          async stop(signal = 'SIGTERM') {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join('')}`));
    });
  });
}

function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: '' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
