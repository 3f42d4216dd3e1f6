// What one HTTP load asks for and what it measured, whichever client runs it (load.ts).
export interface LoadSpec {
  /** http://127.0.0.1:PORT */
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Taken in turn, one per request: overrides of path, body and Authorization header. */
  variants?: { path?: string; body?: string; authorization?: string }[];
  /** A header given a value of its own on every request (an Idempotency-Key): `<prefix>-<n>`. */
  uniqueHeader?: { name: string; prefix: string };
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
