// `npm run cli -- <command>`: operator commands, each printing JSON on stdout (errors as JSON on
// stderr, exit code 1). On the embedded default a running server owns the database, so the CLI
// hands the operation to the server's loopback admin API; otherwise it opens the database itself.
import { existsSync, readFileSync } from 'node:fs';
import path, { join } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { loadEnvFile } from '../config/env-file.js';
import { isRunning } from '../infra/data-dir-lock.js';
import { ADMIN_FILE, errorJson } from '../admin/server.js';
import { operations, type Args, type Progress } from '../admin/operations.js';
import { createRuntime } from './runtime.js';

const USAGE = `Usage: npm run cli -- <command> [options]
  tenant create --name N --country HR|SI|CZ|SK
  tenant set-workflow --tenant ID --steps '[{"approverIds":["..."]}]' | --none
  tenant set-custom-fields --tenant ID --definitions '[{"key":"costCode","type":"text","required":true}]'
  tenant set-enabled --tenant ID [--countries HR,SI,AT] [--currencies EUR,USD] | --all
  api-key create --tenant ID [--name N] [--scopes read,write,webhooks,audit]
  api-key revoke --id ID
  projections rebuild [NAME]
  projections status
  migrate
  rates import --provider HNB|ECB|CNB --file F
  per-diem-rates import --law HR|SI|CZ|SK --valid-from yyyy-MM-dd --file F [--complete]
  webhooks cleanup
  audit verify [--tenant ID] [--stream STREAM_ID]`;

function parse(argv: string[]): { name: string; args: Args } {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    tokens: true,
    options: {
      name: { type: 'string' },
      country: { type: 'string' },
      tenant: { type: 'string' },
      steps: { type: 'string' },
      none: { type: 'boolean' },
      definitions: { type: 'string' },
      countries: { type: 'string' },
      currencies: { type: 'string' },
      all: { type: 'boolean' },
      scopes: { type: 'string' },
      id: { type: 'string' },
      provider: { type: 'string' },
      file: { type: 'string' },
      law: { type: 'string' },
      'valid-from': { type: 'string' },
      complete: { type: 'boolean' },
      stream: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, verb] = positionals;
  // Own keys only: a word such as `constructor` names no operation.
  const known = (candidate: string): boolean => Object.hasOwn(operations, candidate);
  const name = verb !== undefined && known(`${group} ${verb}`) ? `${group} ${verb}` : (group ?? '');
  const args: Args = { ...values };
  // A file is named relative to where the CLI runs, not where the server that may import it runs.
  if (typeof values.file === 'string') args.file = path.resolve(values.file);
  if (values.help || !known(name)) throw new UsageError(name === '' ? USAGE : `Unknown command "${positionals.join(' ')}".\n${USAGE}`);
  // The words after the command: only `projections rebuild NAME` takes one (the projection's name).
  const words = positionals.slice(name.split(' ').length);
  const [operand, ...extra] = name === 'projections rebuild' ? words : [undefined, ...words];
  if (operand !== undefined) args.name = operand;
  // parseArgs keeps the last of a repeated option; an operator who typed two meant one of them.
  const given = tokens.filter((token) => token.kind === 'option').map((token) => token.name);
  const repeated = [...new Set(given.filter((option, i) => given.indexOf(option) !== i))];
  if (repeated.length > 0) throw new UsageError(`${repeated.map((o) => `--${o}`).join(', ')} given more than once.\n${USAGE}`);
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra.join(' ')}" after "${name}".\n${USAGE}`);
  return { name, args };
}

class UsageError extends Error {}

function progressReporter(): { progress: Progress; done(): void } {
  if (!process.stderr.isTTY) return { progress: () => undefined, done: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: '{label} [{bar}] {value}/{total} events' },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    progress(done, total, label) {
      if (!started) {
        bar.start(total, done, { label: label ?? '' });
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, { label: label ?? '' });
    },
    done() {
      if (started) bar.stop();
    },
  };
}

/** The running server's admin endpoint, when this data dir is held by a live server. */
async function adminEndpoint(config: Config): Promise<{ port: number; token: string } | undefined> {
  if (config.databaseUrl !== undefined) return undefined;
  const file = join(config.dataDir, ADMIN_FILE);
  if (!existsSync(file)) return undefined;
  const info = JSON.parse(readFileSync(file, 'utf8')) as { port: number; token: string; pid: number; startTime?: string };
  // A stale file left by a crashed server, whose pid may since belong to another process (the start
  // time tells them apart, as for the DATA_DIR's claim): the CLI opens the directory itself.
  return isRunning(info.pid, info.startTime) ? info : undefined;
}

async function viaAdmin(endpoint: { port: number; token: string }, name: string, args: Args, progress: Progress): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${endpoint.port}/admin/ops/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': endpoint.token },
    body: JSON.stringify(args),
  });
  if (!res.body) throw new Error(`admin API answered ${res.status} without a body`);
  let buffered = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += Buffer.from(chunk).toString('utf8');
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, nl)) as {
        progress?: { done: number; total: number; label?: string };
        result?: unknown;
        error?: unknown;
      };
      buffered = buffered.slice(nl + 1);
      if (line.progress) progress(line.progress.done, line.progress.total, line.progress.label);
      if ('result' in line) return line.result;
      if (line.error) throw Object.assign(new Error('admin operation failed'), { json: line.error });
    }
  }
  throw new Error('admin API closed the stream without a result');
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  loadEnvFile();
  const config = loadConfig({ ...process.env, ROLE: 'all' });
  const reporter = progressReporter();
  try {
    const endpoint = await adminEndpoint(config);
    let result: unknown;
    if (endpoint) {
      result = await viaAdmin(endpoint, parsed.name, parsed.args, reporter.progress);
    } else {
      const rt = await createRuntime(config, { startWork: false, logger: pino({ level: 'warn' }, pino.destination(2)) });
      try {
        result = await operations[parsed.name]!({ db: rt.handle.db, store: rt.store, runner: rt.runner }, parsed.args, reporter.progress);
      } finally {
        await rt.close();
      }
    }
    reporter.done();
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (err) {
    reporter.done();
    const json = (err as { json?: unknown }).json ?? errorJson(err);
    process.stderr.write(`${JSON.stringify({ error: json }, null, 2)}\n`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
