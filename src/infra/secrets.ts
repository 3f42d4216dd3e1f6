// Secrets at rest (webhook signing secrets) are sealed with AES-256-GCM under SECRETS_KEY. On the
// embedded default the key is generated once into DATA_DIR (mode 0600) so `npm start` needs no setup.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
 * process would then refuse to start until an operator deleted it.
 */
function writeDurably(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
