// `npm run openapi [-- FILE]`: writes the OpenAPI document the server publishes at
// /api-reference/openapi.json, without a server or a database of its own (an in-memory embedded
// database serves the app while the document is generated). Lint and the client generator read it.
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/config/config.js';
import { createRuntime } from '../src/main/runtime.js';

const file = process.argv[2] ?? 'openapi.json';
const config = loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent', RATES_FETCH: 'off', SECRETS_KEY: randomBytes(32).toString('hex') });
const rt = await createRuntime(config, { startWork: true, logger: pino({ level: 'silent' }) });
try {
  if (!rt.app) throw new Error('the runtime serves no API');
  await rt.app.ready();
  writeFileSync(file, `${JSON.stringify(rt.app.swagger(), null, 2)}\n`);
  process.stderr.write(`wrote ${file}\n`);
} finally {
  await rt.close();
}
