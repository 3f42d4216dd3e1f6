// The loopback admin API. The embedded database can be opened by one process only, so while the
// server runs it performs the CLI's operations for it. It listens on 127.0.0.1 on a random port;
// the port and a random token are written to DATA_DIR/admin.json (mode 0600), and every call must
// present that token. It is not part of the partner API and is never exposed beyond loopback.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { startTimeOf } from '../infra/data-dir-lock.js';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import { operations, type OperationContext } from './operations.js';
import { ERROR_CODES } from '../domain/error-codes.js';

export const ADMIN_FILE = 'admin.json';

export interface AdminServer {
  port: number;
  close(): Promise<void>;
}

export async function startAdminServer(
  ctx: OperationContext,
  opts: { dataDir: string; logger: Logger; port?: number },
): Promise<AdminServer> {
  const token = randomBytes(32).toString('base64url');
  const app: FastifyInstance = Fastify({
    loggerInstance: opts.logger.child({ component: 'admin' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onRequest', async (request, reply) => {
    const presented = Buffer.from(String(request.headers['x-admin-token'] ?? ''));
    const expected = Buffer.from(token);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return reply
        .code(ERROR_CODES.ADMIN_TOKEN_INVALID.status)
        .send({ error: { code: 'ADMIN_TOKEN_INVALID', message: 'Missing or wrong admin token.' } });
    }
  });
  // Responses are NDJSON: progress lines, then one result or error line.
  app.post<{ Params: { name: string }; Body: Record<string, string | boolean> }>('/admin/ops/:name', async (request, reply) => {
    // Own keys only: a name such as `constructor` is no operation.
    const op = Object.hasOwn(operations, request.params.name) ? operations[request.params.name] : undefined;
    if (!op)
      return reply
        .code(ERROR_CODES.UNKNOWN_OPERATION.status)
        .send({ error: { code: 'UNKNOWN_OPERATION', message: `Unknown operation ${request.params.name}.` } });
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    try {
      const result = await op(ctx, request.body ?? {}, (done, total, label) =>
        res.write(`${JSON.stringify({ progress: { done, total, label } })}\n`),
      );
      res.end(`${JSON.stringify({ result })}\n`);
    } catch (err) {
      res.end(`${JSON.stringify({ error: errorJson(err) })}\n`);
    }
  });
  // Loopback only, always. A fixed port (ADMIN_PORT) suits firewalled hosts and containers; the
  // default picks a free one. Either way the CLI finds it in the admin file.
  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const file = join(opts.dataDir, ADMIN_FILE);
  // With the start time, a CLI does not take another process that reused a crashed server's pid for it.
  writeFileSync(file, JSON.stringify({ port, token, pid: process.pid, startTime: startTimeOf(process.pid) }), { mode: 0o600 });
  return {
    port,
    async close() {
      rmSync(file, { force: true });
      await app.close();
    },
  };
}

export function errorJson(err: unknown): { code: string; message: string; errors?: Record<string, string[]> } {
  if (err instanceof DomainError) return { code: err.code, message: err.message, ...(err.errors ? { errors: err.errors } : {}) };
  return { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) };
}
