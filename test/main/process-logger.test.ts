// The server's logger (src/main/logger.ts), which writes lines in pieces rather than one by one:
// every request still leaves one line with the same fields, nothing is lost in the pieces, a flush
// (what the graceful shutdown awaits) writes out what was still buffered, and a process that ends
// in any way but a kill leaves every line, whole and in order.
import t from 'tap';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/config.js';
import { createRuntime } from '../../src/main/runtime.js';
import { createProcessLogger, HANDOVER_CHARS, MAX_WAIT_MS } from '../../src/main/logger.js';
import { requestLineStream } from '../../src/http/request-line.js';
import { createTenant } from '../../src/tenancy/tenants.js';
import { createApiKey } from '../../src/tenancy/api-keys.js';
import { openTestDatabase, TEST_DATABASE_URL } from '../helpers/db.js';

const dir = mkdtempSync(path.join(tmpdir(), 'travelog-log-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const parseLines = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const linesOf = (file: string): Record<string, unknown>[] => parseLines(readFileSync(file, 'utf8'));

t.test('a flush writes every buffered line, in order, and waits for the write', async (t) => {
  const file = path.join(dir, 'plain.log');
  const { logger, flush } = createProcessLogger('info', file);
  // Many pieces' worth, ending with a part piece smaller than HANDOVER_CHARS that only a flush writes.
  const n = Math.ceil((HANDOVER_CHARS * 5) / 60) + 3;
  for (let i = 0; i < n; i++) logger.info({ i }, 'line');
  await flush();
  const lines = linesOf(file);
  t.equal(lines.length, n, 'none lost');
  t.same(
    lines.map((l) => l.i),
    Array.from({ length: n }, (_, i) => i),
    'in the order logged',
  );
  t.match(lines[0], { level: 30, msg: 'line', time: Number, pid: process.pid });
  logger.info({ last: true }, 'after the flush');
  await flush();
  t.match(linesOf(file).at(-1), { last: true }, 'a second flush writes what came since');
});

t.test('lines of any characters and any length come out whole, in order', async (t) => {
  // Characters that take two to four bytes in UTF-8, a line that does not fit in the piece beside
  // the others, and one longer than a whole piece, between short ones.
  const file = path.join(dir, 'wide.log');
  const { logger, flush } = createProcessLogger('info', file);
  const texts = [
    'plain',
    'Čakovec–Žilina, Přerov 🚆'.repeat(40),
    'ž'.repeat(Math.floor(HANDOVER_CHARS / 2) - 200),
    '€'.repeat(HANDOVER_CHARS),
    'after the long one',
  ];
  for (const [i, text] of texts.entries()) logger.info({ i, text }, 'wide');
  await flush();
  t.same(
    linesOf(file).map((l) => [l.i, l.text]),
    texts.map((text, i) => [i, text]),
    'each line parses and keeps its text, in order',
  );
});

t.test('a process that ends leaves every line it logged: at process.exit, by an uncaught exception and on its own', async (t) => {
  const script = fileURLToPath(new URL('../fixtures/logger/log-then-end.ts', import.meta.url));
  // A few lines (held in memory, under a piece) and many (pieces already written); and the same
  // with libuv's one pool thread busy. The 'exit' run of many lines with the pool busy is the one
  // that failed when pieces were written asynchronously through the pool: a piece still waiting there
  // when the process ended came out after later ones, cut into them, or not at all.
  for (const busy of ['', 'busy']) {
    for (const count of [3, Math.ceil((HANDOVER_CHARS * 3) / 60)]) {
      for (const how of ['exit', 'throw', 'natural']) {
        const what = `${how}, ${count} lines${busy ? ', pool busy' : ''}`;
        const run = spawnSync(process.execPath, ['--import', 'tsx', script, how, String(count), busy], {
          encoding: 'utf8',
          env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
          maxBuffer: 64 * 1024 * 1024,
          timeout: 60_000,
        });
        t.equal(run.status, { exit: 3, throw: 1, natural: 0 }[how], `${what}: the process ended as asked ${run.stderr}`);
        // A line cut into another does not parse, and fails the test there.
        t.same(
          parseLines(run.stdout).map((l) => l.i),
          Array.from({ length: count }, (_, i) => i),
          `${what}: every one, whole, in order`,
        );
      }
    }
  }
});

t.test('a process whose stdout fails goes on without its log lines', async (t) => {
  const script = fileURLToPath(new URL('../fixtures/logger/log-then-end.ts', import.meta.url));
  const args = ['--import', 'tsx', script, 'linger', String(Math.ceil((HANDOVER_CHARS * 3) / 60))];
  // Enough lines for several pieces, to a stdout that fails: closed by its reader at once (EPIPE),
  // or /dev/full (ENOSPC, as a full disk). The process runs on, as a server would, logs again and
  // ends on its own.
  const full = openSync('/dev/full', 'w');
  t.teardown(() => closeSync(full));
  for (const [what, stdout, code] of [
    ['closed', 'pipe', 'EPIPE'],
    ['full', full, 'ENOSPC'],
  ] as const) {
    const child = spawn(process.execPath, args, { stdio: ['ignore', stdout, 'pipe'] });
    child.stdout?.destroy();
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [status] = (await once(child, 'close')) as [number | null];
    t.equal(status, 0, `${what}: it ended on its own, as it would have with its lines written ${stderr}`);
    const said = stderr.match(new RegExp(`log destination failed, log lines are dropped from now on: .*${code}`, 'g'));
    t.equal(said?.length, 1, `${what}: stderr says once why the lines are gone ${stderr}`);
  }
});

t.test('a process whose stdout and stderr are both closed goes on', async (t) => {
  // The notice of the failed destination then has nowhere to go either; writing it must not end the
  // process (a closed stderr reports its failure as an 'error' event of process.stderr).
  const script = fileURLToPath(new URL('../fixtures/logger/log-then-end.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, 'linger', String(Math.ceil((HANDOVER_CHARS * 3) / 60))], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  child.stderr.destroy();
  const [status] = (await once(child, 'close')) as [number | null];
  t.equal(status, 0, 'it ended on its own');
});

t.test('a quiet process writes its lines within MAX_WAIT_MS, with no flush', async (t) => {
  // What bounds the loss of a kill -9: a line never waits in memory longer than this.
  const file = path.join(dir, 'quiet.log');
  const { logger } = createProcessLogger('info', file);
  logger.info({ quiet: true }, 'one line on a quiet process');
  const deadline = Date.now() + MAX_WAIT_MS + 2_000;
  while (Date.now() < deadline && !existsSync(file)) await new Promise((r) => setTimeout(r, 10));
  while (Date.now() < deadline && linesOf(file).length === 0) await new Promise((r) => setTimeout(r, 10));
  t.match(linesOf(file), [{ quiet: true }], 'written by the timer');
});

t.test('every request leaves its line with the same fields; the shutdown path flushes them', async (t) => {
  const file = path.join(dir, 'server.log');
  const { logger, flush } = createProcessLogger('info', file);
  const handle = await openTestDatabase(t);
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'info',
    RATES_FETCH: 'off',
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
  });
  const rt = await createRuntime(config, { handle, startWork: true, logger });
  let closed = false;
  t.teardown(() => (closed ? undefined : rt.close()));
  const origin = await rt.app!.listen({ host: '127.0.0.1', port: 0 });
  // The lines below are the server's own path: written directly, not through pino's serialiser.
  t.ok(requestLineStream(rt.app!.log.child({ reqId: 'r' }, {})), "the server's request loggers write the line directly");
  const tenant = await createTenant(handle.db, { name: 'Logs d.o.o.', country: 'HR' });
  const key = await createApiKey(handle.db, { tenantId: tenant.id, scopes: ['read'] });
  const requestIds: string[] = [];
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${origin}/api/v1/company`, { headers: { authorization: `Bearer ${key.key}` } });
    t.equal(res.status, 200);
    requestIds.push(res.headers.get('x-request-id')!);
  }
  // A query's values stay out of the log (free text, such as a deletion reason, may be personal).
  const withQuery = await fetch(`${origin}/api/v1/reference/countries?enabled=true&note=Ana%20Horvat&Ivo%20Kovač=1`, {
    headers: { authorization: `Bearer ${key.key}` },
  });
  t.equal(withQuery.status, 400, 'an unknown parameter, answered and logged all the same');
  // Nor does the client's text in a path: a refused id, or any segment of an unmatched route.
  const byMail = await fetch(`${origin}/api/v1/employees/ana.horvat@acme.hr`, { headers: { authorization: `Bearer ${key.key}` } });
  t.equal(byMail.status, 400);
  const nowhere = await fetch(`${origin}/api/v1/employes/Ana%20Horvat`, { headers: { authorization: `Bearer ${key.key}` } });
  t.equal(nowhere.status, 404);
  const unauthenticated = await fetch(`${origin}/api/v1/company`);
  t.equal(unauthenticated.status, 401);
  await rt.close();
  closed = true;
  await flush();

  const completed = linesOf(file).filter((l) => l.msg === 'request completed');
  t.same(
    completed.filter((l) => l.statusCode === 200).map((l) => l.requestId),
    requestIds,
    'one line per request, in order',
  );
  t.match(completed.find((l) => l.requestId === requestIds[0]) ?? {}, {
    level: 30,
    reqId: requestIds[0],
    requestId: requestIds[0],
    apiKeyId: key.apiKeyId,
    tenantId: tenant.id,
    method: 'GET',
    route: '/api/v1/company',
    url: '/api/v1/company',
    statusCode: 200,
    durationMs: Number,
  });
  t.match(completed.at(-1), { statusCode: 401, apiKeyId: undefined, route: '/api/v1/company' }, 'the refused one too');
  const queried = completed.find((l) => l.route === '/api/v1/reference/countries');
  t.match(
    queried,
    { url: '/api/v1/reference/countries', query: ['enabled', '?'], statusCode: 400 },
    'the path and the declared parameter names',
  );
  t.match(
    completed.find((l) => l.route === '/api/v1/employees/:id'),
    { url: '/api/v1/employees/?', statusCode: 400 },
    'a refused id, masked',
  );
  t.match(
    completed.find((l) => l.statusCode === 404),
    { url: '/api/v1/employes/?' },
    'an unmatched path keeps its plain words only',
  );
  t.notMatch(readFileSync(file, 'utf8'), /Ana|Horvat|Ivo|horvat/, 'no query value, undeclared name or path text anywhere in the log');
});
