// The secrets key of the embedded default: generated once into DATA_DIR, owner-only, read back on
// every later start, never replaced; and what it seals opens only under the same key.
import t from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { resolveSecretsKey, secretBox } from '../../src/infra/secrets.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'travelog-secrets-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

t.test('generated once, owner-only, the same on every later start', async (t) => {
  const dir = path.join(dataDir, 'fresh');
  const first = resolveSecretsKey(undefined, dir);
  t.equal(first.length, 32);
  const file = path.join(dir, 'secrets.key');
  t.equal(statSync(file).mode & 0o777, 0o600, 'readable by the owner only');
  t.equal(readFileSync(file, 'utf8'), `${first.toString('hex')}\n`);
  t.same(readdirSync(dir), ['secrets.key'], 'nothing else left behind');
  t.same(resolveSecretsKey(undefined, dir), first, 'read back, not made anew');
});

t.test('a temporary file a crash left behind does not stand in the way', async (t) => {
  const dir = path.join(dataDir, 'crashed');
  resolveSecretsKey(undefined, path.join(dir, 'x')); // creates the parent
  // Another process's: the pid of the start that crashed, not this one's.
  writeFileSync(path.join(dir, `secrets.key.${process.pid + 1}.tmp`), 'half');
  const key = resolveSecretsKey(undefined, dir);
  t.equal(readFileSync(path.join(dir, 'secrets.key'), 'utf8'), `${key.toString('hex')}\n`);
  t.notOk(
    readdirSync(dir).some((f) => f.endsWith('.tmp')),
    'the leftover is gone',
  );
});

t.test('a configured key wins; a damaged file is refused, not replaced', async (t) => {
  const configured = randomBytes(32);
  t.same(resolveSecretsKey(configured, path.join(dataDir, 'unused')), configured);
  const dir = path.join(dataDir, 'damaged');
  resolveSecretsKey(undefined, dir);
  writeFileSync(path.join(dir, 'secrets.key'), 'not a key\n');
  t.throws(() => resolveSecretsKey(undefined, dir), /does not hold a 32-byte key/);
  t.equal(readFileSync(path.join(dir, 'secrets.key'), 'utf8'), 'not a key\n', 'left for the operator');
});

t.test('a sealed secret opens under its key only', async (t) => {
  const box = secretBox(randomBytes(32));
  const sealed = box.seal('whsec_example');
  t.match(sealed, /^v1\./);
  t.equal(box.open(sealed), 'whsec_example');
  t.throws(() => secretBox(randomBytes(32)).open(sealed), 'another key cannot open it');
});
