// The migrated embedded database every PGlite test starts from. A new PGlite cluster costs 3-5 s of
// initdb (more than most test files' own work); a copy of a migrated one loads in about 0.6 s. The
// template is made by the first test files of a suite run (each one that starts before it exists:
// a real cluster, the real migrations), dumped with PGlite's dumpDataDir, and kept in the OS temp
// directory under a key of everything that shapes it: the pinned dependencies (PGlite's version
// among them), and the text of the migrations and of the migrator. Every test still runs
// migrateToLatest on its copy (a no-op on a current template, and what would bring a stale one up to
// date). docs/decisions.md, "Test start-up".
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type DatabaseHandle } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';

const infra = fileURLToPath(new URL('../../src/infra/', import.meta.url));
// Per user: another user's file in a shared temp directory is neither read nor replaced.
const PREFIX = `travelog-pglite-template-${userInfo().uid}-`;

function templateKey(): string {
  const h = createHash('sha256');
  // The installed PGlite is the exact version package.json pins.
  h.update(readFileSync(new URL('../../package.json', import.meta.url)));
  const migrations = join(infra, 'migrations');
  for (const file of readdirSync(migrations).sort()) h.update(`${file}\n`).update(readFileSync(join(migrations, file)));
  h.update(readFileSync(join(infra, 'migrate.ts')));
  return h.digest('hex').slice(0, 24);
}

/** Writes the file whole and on disk before it takes its name: no run ever reads half a template. */
function writeDurably(path: string, bytes: Uint8Array): void {
  const partial = `${path}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, path);
}

async function makeTemplate(file: string): Promise<Blob> {
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateToLatest(handle.db);
    const dump = await handle.pglite!.dumpDataDir('none');
    writeDurably(file, new Uint8Array(await dump.arrayBuffer()));
    // Templates of older migrations are 40 MB each (a .partial file may be another run at work).
    const dir = tmpdir();
    for (const name of readdirSync(dir)) {
      const other = join(dir, name);
      if (name.startsWith(PREFIX) && other !== file && !name.endsWith('.partial')) rmSync(other, { force: true });
    }
    return dump;
  } finally {
    await handle.close();
  }
}

let template: Promise<Blob> | undefined;

let templateFile: string | undefined;

/** Where this process's template lives (the key reads every migration: worked out once). */
export const templatePath = (): string => (templateFile ??= join(tmpdir(), `${PREFIX}${templateKey()}.tar`));

/** The template file's bytes, or undefined when there is none yet. */
function readTemplate(file: string): Blob | undefined {
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/** The migrated template's data directory (made on first use in this run of the suite). */
export function migratedPgliteTemplate(): Promise<Blob> {
  template ??= Promise.resolve(readTemplate(templatePath()) ?? makeTemplate(templatePath()));
  return template;
}

/**
 * A migrated in-memory PGlite database of its own. A template file that does not load (damaged on
 * disk) is made again, once.
 */
export async function openMigratedPglite(): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: await migratedPgliteTemplate() });
  } catch {
    rmSync(templatePath(), { force: true });
    template = undefined;
    handle = await openDatabase({ dataDir: 'memory://', pgliteSnapshot: await migratedPgliteTemplate() });
  }
  await migrateToLatest(handle.db);
  return handle;
}
