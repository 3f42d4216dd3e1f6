import t from 'tap';
import { ConfigError, DEFAULT_RETRY_DELAYS_SECONDS, loadConfig } from '../../src/config/config.js';

const KEY = 'a'.repeat(64);

t.test('defaults describe the embedded single-process setup', async (t) => {
  const c = loadConfig({});
  t.match(c, {
    port: 3000,
    host: '0.0.0.0',
    databaseUrl: undefined,
    dataDir: './data',
    eventStore: 'postgres',
    role: 'all',
    logLevel: 'info',
  });
  t.same(c.webhookRetryDelaysSeconds, DEFAULT_RETRY_DELAYS_SECONDS);
  t.equal(c.webhookTimeoutMs, 10_000);
  t.ok(Object.isFrozen(c));
});

t.test('every invalid or missing key is listed in one error', async (t) => {
  try {
    loadConfig({
      PORT: 'http',
      EVENT_STORE: 'mongo',
      LOG_LEVEL: 'loud',
      ROLE: 'api',
      DATABASE_URL: 'mysql://x',
      WEBHOOK_ALLOWED_PRIVATE_CIDRS: '10.0.0.0/33',
      WEBHOOK_RETRY_DELAYS_SECONDS: '1,2',
      TRUST_PROXY: '10.0.0.1, proxy.internal',
    });
    t.fail('should throw');
  } catch (err) {
    t.type(err, ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const key of [
      'PORT',
      'EVENT_STORE',
      'LOG_LEVEL',
      'DATABASE_URL',
      'SECRETS_KEY',
      'WEBHOOK_ALLOWED_PRIVATE_CIDRS',
      'WEBHOOK_RETRY_DELAYS_SECONDS',
      'TRUST_PROXY: "proxy.internal"',
    ]) {
      t.match(problems, key, `names ${key}`);
    }
  }
});

t.test('EventStoreDB needs its connection string and a PostgreSQL for the read models', async (t) => {
  t.throws(() => loadConfig({ EVENT_STORE: 'eventstoredb' }), /EVENTSTORE_CONNECTION_STRING is required[\s\S]*DATABASE_URL is required/);
  const c = loadConfig({
    EVENT_STORE: 'eventstoredb',
    EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
    DATABASE_URL: 'postgres://x/y',
    SECRETS_KEY: KEY,
  });
  t.equal(c.eventStore, 'eventstoredb');
});

t.test('split roles need a server database; the secrets key is required there', async (t) => {
  t.throws(() => loadConfig({ ROLE: 'projector' }), /ROLE=projector needs DATABASE_URL/);
  t.throws(() => loadConfig({ DATABASE_URL: 'postgres://x/y' }), /SECRETS_KEY is required/);
  t.equal(loadConfig({ DATABASE_URL: 'postgres://x/y', SECRETS_KEY: KEY }).secretsKey?.length, 32);
  t.equal(loadConfig({ SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }).secretsKey?.length, 32);
  t.throws(() => loadConfig({ SECRETS_KEY: 'short' }), /SECRETS_KEY must be 32 bytes/);
});

t.test('webhook settings for tests and sandboxes', async (t) => {
  const c = loadConfig({
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8, ::1/128',
    WEBHOOK_RETRY_DELAYS_SECONDS: '0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8',
    WEBHOOK_TIMEOUT_MS: '500',
  });
  t.same(c.webhookAllowedPrivateCidrs, ['127.0.0.0/8', '::1/128']);
  t.same(c.webhookRetryDelaysSeconds, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
  t.equal(c.webhookTimeoutMs, 500);
});

t.test('reverse proxies are trusted only when named, by address or range', async (t) => {
  t.same(loadConfig({}).trustProxy, [], 'by default X-Forwarded-For is not believed');
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1 ,::1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1']);
});
