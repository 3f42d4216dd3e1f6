// A TCP hop between a test's pool and PostgreSQL that can lose one reply or one request. Armed
// for a reply, the first request whose bytes name `marker` (a prepared statement's name travels in
// every Bind) is passed on, and the connection to the client is cut when the server answers. The
// server's side stays open a moment longer, so the statement runs to its end: a commit whose reply
// never arrived, as a network failure or a client's deadline leaves it. Armed for a request, that
// request is dropped and the connection cut: the statement never reaches the server.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ReplyCutter {
  /** postgres://… through the hop, for `database` on the target server. */
  url(database: string): string;
  /** The next request naming `marker` loses its reply (`reply`) or is itself lost (`request`). */
  arm(marker: string, lose?: 'reply' | 'request'): void;
  /** How many replies or requests were cut. */
  readonly cut: number;
  close(): Promise<void>;
}

export async function startReplyCutter(target: { host: string; port: number; user: string }): Promise<ReplyCutter> {
  let marker: string | undefined;
  let lose: 'reply' | 'request' = 'reply';
  let cut = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    let cutNextReply = false;
    client.on('data', (chunk: Buffer) => {
      if (marker !== undefined && chunk.includes(marker)) {
        marker = undefined;
        if (lose === 'request') {
          cut++;
          client.destroy();
          upstream.destroy();
          return;
        }
        cutNextReply = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cutNextReply) return void client.write(chunk);
      cutNextReply = false;
      cut++;
      client.destroy();
      setTimeout(() => upstream.destroy(), 500);
    });
    client.on('close', () => setTimeout(() => upstream.destroy(), 500));
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (database) => `postgres://${target.user}@127.0.0.1:${port}/${database}`,
    arm(m, what = 'reply') {
      marker = m;
      lose = what;
    },
    get cut() {
      return cut;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
