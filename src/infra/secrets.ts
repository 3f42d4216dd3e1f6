// Secrets at rest (webhook signing secrets) are sealed with AES-256-GCM under SECRETS_KEY. On the
// embedded default the key is generated once into DATA_DIR (mode 0600) so `npm start` needs no setup.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseKey } from '../config/config.js';

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split('.');
      if (version !== 'v1' || payload === undefined) throw new Error('Unknown sealed-secret format');
      const raw = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** The configured key, or on the embedded default the one kept in DATA_DIR (created when absent). */
export function resolveSecretsKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  if (dataDir === 'memory://') return randomBytes(32);
  const file = join(dataDir, 'secrets.key');
  if (existsSync(file)) {
    const key = parseKey(readFileSync(file, 'utf8').trim());
    if (!key) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeDurably(file, `${key.toString('hex')}\n`);
  return key;
}

/**
 * Writes a new file whole or not at all, and on disk before anything is sealed with what it holds:
 * written and synced under another name, then linked into place (which, unlike rename, never
 * replaces a file already there), and the directory synced. A crash in between leaves no
 * `secrets.key` and the next start makes one; a key written in place could be left empty, and the
 * process would then refuse to start until an operator deleted it. What a crashed start left under
 * other names is removed first: it holds a key nothing was sealed with, and DATA_DIR is claimed by
 * this process (data-dir-lock.ts). A file system without hard links gets the exclusive create and a
 * sync, the write in place this replaced.
 */
function writeDurably(file: string, text: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dir)) if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeAndSync(temporary, text);
  try {
    linkSync(temporary, file);
  } catch (err) {
    if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    writeAndSync(file, text);
  } finally {
    rmSync(temporary, { force: true });
  }
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What link() answers on file systems without hard links (some SMB, FAT and FUSE mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Creates `file` (it must not exist), owner-only, and syncs what it wrote. */
function writeAndSync(file: string, text: string): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
