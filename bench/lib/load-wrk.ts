// One HTTP load with wrk (C, one thread), the client issue 13 names for the HTTP figures. Its cost
// per response is a fraction of autocannon's: with autocannon on a two-core machine, reading the
// list's 126 KB pages took the core the server needed, and the list's rounds swung between about
// 2,600 and 8,300 requests/s with the server's own CPU at times near half a core
// (docs/benchmarks.md, session 16). The spec becomes a Lua script: each variant's request built
// once and sent in turn; `done` prints the summary as one JSON line, with the status of every
// response counted for the notes.
//
// Two ways wrk's figures differ from autocannon's: its percentiles include wrk's correction for
// coordinated omission (a response slower than twice the mean interval adds synthetic samples
// between the two), and a request lost to a socket the server closed is retried on a new
// connection rather than counted as an error.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LoadResult, LoadSpec } from './load-spec.js';

const run = promisify(execFile);

/**
 * A double-quoted Lua string holding `text`'s UTF-8 bytes exactly: every byte outside printable
 * ASCII, and the quote and backslash, as a decimal escape. (A long bracket string would turn a CR
 * or CRLF into LF and needs a level no suffix of the text can close.)
 */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c ? `\\${String(byte).padStart(3, '0')}` : String.fromCharCode(byte);
  }
  return out + '"';
}

/** A Lua table literal of strings. */
const luaList = (items: readonly string[]): string => `{${items.map(luaString).join(',\n')}}`;

function script(spec: LoadSpec): string {
  const base = { path: spec.path, body: spec.body, authorization: spec.headers.authorization };
  // As load-worker.ts: a variant's field that is absent or undefined keeps the spec's.
  const variants =
    spec.variants && spec.variants.length > 0
      ? spec.variants.map((v) => ({
          path: v.path ?? base.path,
          body: v.body ?? base.body,
          authorization: v.authorization ?? base.authorization,
        }))
      : [base];
  const headerLines = (authorization: string | undefined): Record<string, string> => {
    const h = { ...spec.headers };
    delete h.authorization;
    return authorization === undefined ? h : { ...h, Authorization: authorization };
  };
  const headerTable = (h: Record<string, string>): string =>
    `{${Object.entries(h)
      .map(([k, v]) => `[ ${luaString(k)} ]=${luaString(v)}`)
      .join(',')}}`;
  return `
local paths = ${luaList(variants.map((v) => v.path))}
local bodies = ${luaList(variants.map((v) => v.body ?? ''))}
local headers = {${variants.map((v) => headerTable(headerLines(v.authorization))).join(',\n')}}
local requests = {}
local turn = 0
counts = {} -- global: done() reads it with thread:get
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for i = 1, #paths do
    local body = bodies[i]
    if body == '' then body = nil end
    requests[i] = wrk.format(${luaString(spec.method)}, paths[i], headers[i], body)
  end
end

${
  spec.uniqueHeader === undefined
    ? `function request()
  turn = turn % #requests + 1
  return requests[turn]
end`
    : `local sent = 0
function request()
  turn = turn % #paths + 1
  sent = sent + 1
  local h = {}
  for k, v in pairs(headers[turn]) do h[k] = v end
  h[${luaString(spec.uniqueHeader.name)}] = ${luaString(spec.uniqueHeader.prefix)} .. '-' .. sent
  local body = bodies[turn]
  if body == '' then body = nil end
  return wrk.format(${luaString(spec.method)}, paths[turn], h, body)
end`
}

function response(status, headers, body)
  local key = tostring(status)
  counts[key] = (counts[key] or 0) + 1
end

function done(summary, latency, requests)
  local statuses = {}
  for _, thread in ipairs(threads) do
    local c = thread:get('counts')
    for k, v in pairs(c) do statuses[#statuses + 1] = string.format('"%s":%d', k, v) end
  end
  local e = summary.errors
  io.write(string.format(
    '{"durationUs":%d,"requests":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,' ..
    '"p50":%d,"p99":%d,"max":%d,"mean":%f,"statuses":{%s}}\\n',
    summary.duration, summary.requests, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, latency.mean, table.concat(statuses, ',')))
end
`;
}

interface WrkSummary {
  durationUs: number;
  requests: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
  statuses: Record<string, number>;
}

const ms = (us: number): number => Math.round(us / 10) / 100;

export async function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'travelog-wrk-'));
  try {
    const file = path.join(dir, 'load.lua');
    await writeFile(file, script(spec));
    const { stdout, stderr } = await run(
      'wrk',
      ['-t1', `-c${spec.connections}`, `-d${spec.seconds}s`, '--timeout', '30s', '-s', file, spec.origin],
      { timeout: (spec.seconds + 60) * 1000, maxBuffer: 1 << 20 },
    );
    // wrk reports a Lua error on stderr and then goes on with a plain GET of the origin.
    if (stderr.trim() !== '') throw new Error(`wrk: ${stderr.trim()}`);
    const line = stdout.split('\n').find((l) => l.startsWith('{"durationUs"'));
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
    const s = JSON.parse(line) as WrkSummary;
    const errors = s.connect + s.read + s.write + s.timeout;
    let ok = 0;
    let non2xx = 0;
    for (const [code, count] of Object.entries(s.statuses)) {
      if (code.startsWith('2')) ok += count;
      else non2xx += count;
    }
    return {
      seconds: s.durationUs / 1e6,
      ok,
      non2xx,
      errors,
      timeouts: s.timeout,
      statusCodes: s.statuses,
      latencyMs: { p50: ms(s.p50), p99: ms(s.p99), max: ms(s.max), mean: ms(s.mean) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
