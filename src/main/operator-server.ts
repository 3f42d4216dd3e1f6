// The operator listener: /metrics, /healthz and /readyz for every ROLE (the projector and webhook
// workers have no other port), on METRICS_HOST:METRICS_PORT, loopback by default, never the
// partner port. It starts before anything touches the database, so while a process waits for
// PostgreSQL it can already say that it is alive and not ready.
//
// What /healthz here means by "alive" (docs/operations.md): the process is starting or running
// (not shutting down, not failed) and its event loop answers: every background loop catches its
// errors and retries, so a running process is a working one. The database is NOT part of it: a restart cannot mend an unreachable PostgreSQL, so an
// orchestrator must not kill the process for it; /readyz reports that.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from '../infra/metrics.js';
import { checkReadiness, refreshProjectionGauges, type ReadinessDeps } from '../infra/readiness.js';

export type Phase = 'starting' | 'running' | 'stopping' | 'failed';

export interface OperatorServer {
  /** http://host:port */
  readonly address: string;
  readonly phase: Phase;
  /** The process's parts are up: readiness can now ask the database. */
  attach(deps: ReadinessDeps): void;
  setPhase(phase: Phase): void;
  close(): Promise<void>;
}

export async function startOperatorServer(o: {
  host: string;
  port: number;
  metrics: Metrics;
  logger: Logger;
  readyMaxLagEvents: number;
}): Promise<OperatorServer> {
  let phase: Phase = 'starting';
  let deps: ReadinessDeps | undefined;
  const startedAt = Date.now();

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'method not allowed' });
    if (path === '/healthz') {
      const alive = phase === 'starting' || phase === 'running';
      return json(res, alive ? 200 : 503, {
        status: alive ? 'ok' : 'down',
        phase,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      });
    }
    if (path === '/readyz') {
      if (!deps || phase !== 'running') {
        // Waiting for PostgreSQL (or migrating, or shutting down): not ready, and the body says why.
        return json(res, 503, { status: 'not_ready', phase, database: 'down', maxLagEvents: o.readyMaxLagEvents, projections: [] });
      }
      const { statusCode, body } = await checkReadiness(deps);
      return json(res, statusCode, { ...body, phase });
    }
    if (path === '/metrics') {
      if (deps) await refreshProjectionGauges(deps);
      res.writeHead(200, { 'content-type': o.metrics.registry.contentType }).end(await o.metrics.registry.metrics());
      return;
    }
    return json(res, 404, { error: 'not found', routes: ['/healthz', '/readyz', '/metrics'] });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      o.logger.error({ err }, 'operator listener request failed');
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  // A scraper's keep-alive connection must not hold a shutdown open.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    address: `http://${host}:${addr.port}`,
    get phase() {
      return phase;
    },
    attach(d) {
      deps = d;
    },
    setPhase(p) {
      phase = p;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
