// A real HTTPS endpoint for webhook tests and benches: listens on 127.0.0.1 with a self-signed
// certificate made at test time by the openssl CLI, records every request (method, path, headers,
// raw body bytes) and answers as the test programs it, per request.
// The certificate names `receiver.test` and 127.0.0.1 by default. Because 127.0.0.1 is loopback,
// tests pass `allowedPrivateCidrs: ['127.0.0.0/8']` to the URL policy; to exercise TLS name checks,
// use `urlFor('receiver.test')` with an injected resolver answering 127.0.0.1.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Header names and values in wire order and case. */
  rawHeaders: string[];
  body: Buffer;
  /** The local address the connection arrived on (which of several listeners got it). */
  localAddress: string;
  /** Index of the TLS connection, to see keep-alive reuse. */
  connection: number;
  /** The SNI name the client sent (false when none, as for an IP-literal URL). */
  servername: string | false;
}

export interface ReceiverAnswer {
  status?: number; // default 200
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Sets status 302 (unless given) and Location. */
  redirectTo?: string;
  /** Send the head, then trickle the body: one chunk now, the rest after this many ms. */
  bodyDelayMs?: number;
  /** Drop the connection instead of answering (after delayMs). */
  destroy?: boolean;
}

export type Responder = (request: ReceivedRequest, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>;

export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>/` */
  url: string;
  port: number;
  host: string;
  /** PEM of the self-signed certificate; pass as `ca` to trust it. */
  ca: string;
  requests: ReceivedRequest[];
  respondWith(fn: Responder): void;
  /** The receiver's URL under another host name (resolve it to the receiver with an injected resolver). */
  urlFor(hostname: string, path?: string): string;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** DNS names in the certificate; default ['receiver.test']. IP 127.0.0.1 is always included. */
  dnsNames?: string[];
  /** Reuse another receiver's certificate (same ca). */
  certificate?: Certificate;
}

export interface Certificate {
  cert: string;
  key: string;
}

const run = promisify(execFile);

/** A fresh self-signed certificate (EC P-256, one day) naming `dnsNames` and 127.0.0.1. */
export async function makeSelfSignedCertificate(dnsNames: readonly string[] = ['receiver.test']): Promise<Certificate> {
  const dir = await mkdtemp(join(tmpdir(), 'receiver-cert-'));
  try {
    const san = [...dnsNames.map((n) => `DNS:${n}`), 'IP:127.0.0.1'].join(',');
    await run('openssl', [
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
      `/CN=${dnsNames[0] ?? 'receiver.test'}`,
      '-addext',
      `subjectAltName=${san}`,
    ]);
    return { cert: await readFile(join(dir, 'cert.pem'), 'utf8'), key: await readFile(join(dir, 'key.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function startHttpsReceiver(options: ReceiverOptions = {}): Promise<HttpsReceiver> {
  const host = options.host ?? '127.0.0.1';
  const certificate = options.certificate ?? (await makeSelfSignedCertificate(options.dnsNames));
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let responder: Responder = () => ({ status: 200, body: 'ok' });
  let connections = 0;
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const server: Server = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as TLSSocket & { receiverConnection?: number };
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        localAddress: socket.localAddress ?? '',
        connection: socket.receiverConnection ?? -1,
        servername: (socket as TLSSocket & { servername?: string | false }).servername ?? false,
      };
      const index = requests.push(received) - 1;
      void (async () => {
        const answer = await responder(received, index);
        if (answer.delayMs) await wait(answer.delayMs);
        if (res.destroyed) return;
        if (answer.destroy) return void req.socket.destroy();
        const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', ...answer.headers };
        if (answer.redirectTo !== undefined) headers['location'] = answer.redirectTo;
        res.writeHead(answer.status ?? (answer.redirectTo !== undefined ? 302 : 200), headers);
        const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
        if (answer.bodyDelayMs) {
          res.write(body.subarray(0, 1));
          await wait(answer.bodyDelayMs);
          if (!res.destroyed) res.end(body.subarray(1));
        } else res.end(body);
      })().catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
  });
  server.on('secureConnection', (socket) => {
    (socket as typeof socket & { receiverConnection?: number }).receiverConnection = connections++;
  });
  // Client-side failures (an untrusted certificate, a dropped body) surface here; they are expected.
  server.on('tlsClientError', () => undefined);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlFor = (hostname: string, path = '/'): string => `https://${hostname}:${port}${path}`;

  return {
    url: urlFor(host.includes(':') ? `[${host}]` : host),
    port,
    host,
    ca: certificate.cert,
    requests,
    respondWith(fn) {
      responder = fn;
    },
    urlFor,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
