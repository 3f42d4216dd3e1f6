// One `npm start` process (src/main/start.ts) of any ROLE, for chaos tests: resolves once its
// operator listener is up (before the database is needed), and tells when the partner port listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_WITH_TSX, ROOT } from '../helpers/processes.js';

export interface RoleProcess {
  role: string;
  child: ChildProcess;
  operatorUrl: string;
  logs: string[];
  /** Set once the partner port listens (roles all and api). */
  partnerUrl(): string | undefined;
  /** null while running, otherwise the exit code (or the signal). */
  exitCode(): number | string | null;
  /** SIGTERM, then SIGKILL to the process group if it lingers. */
  stop(): Promise<void>;
}

export function startRole(env: Record<string, string>, timeoutMs = 90_000): Promise<RoleProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_WITH_TSX, 'src/main/start.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_OPTIONS: '',
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        LOG_LEVEL: 'info',
        RATES_FETCH: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const logs: string[] = [];
    let exit: number | string | null = null;
    let partner: string | undefined;
    let operator: string | undefined;
    const exited = new Promise<void>((r) =>
      child.on('close', (code, sig) => {
        exit = code ?? sig ?? 'unknown';
        r();
      }),
    );
    const killGroup = (sig: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // gone
      }
    };
    const timer = setTimeout(() => {
      killGroup('SIGKILL');
      reject(new Error(`${env.ROLE} did not open its operator listener:\n${logs.join('')}`));
    }, timeoutMs);
    let buffered = '';
    child.stderr.on('data', (d) => logs.push(String(d)));
    child.stdout.on('data', (d) => {
      logs.push(String(d));
      buffered += d;
      partner ??= /"address":"(http:\/\/[^"]+)"/.exec(buffered)?.[1];
      const op = /"operatorAddress":"(http:\/\/[^"]+)"/.exec(buffered)?.[1];
      if (op && !operator) {
        operator = op;
        clearTimeout(timer);
        resolve({
          role: env.ROLE ?? 'all',
          child,
          operatorUrl: op,
          logs,
          partnerUrl: () => partner,
          exitCode: () => exit,
          async stop() {
            if (exit !== null) return;
            child.kill('SIGTERM');
            const late = setTimeout(() => killGroup('SIGKILL'), 30_000);
            await exited;
            clearTimeout(late);
            killGroup('SIGKILL'); // tsx's child, should it outlive its launcher
          },
        });
      }
      if (buffered.length > 1_000_000) buffered = buffered.slice(-10_000);
    });
    child.on('close', () => {
      clearTimeout(timer);
      if (!operator) reject(new Error(`${env.ROLE} exited before listening:\n${logs.join('')}`));
    });
  });
}
