// The migrated embedded database every PGlite test starts from. A new PGlite cluster costs 3-5 s of
// initdb (more than most test files' own work); a copy of a migrated one loads in about 0.6 s. The
// template is made once per run of the suite by the first test file that needs it (a real cluster,
// the real migrations), dumped with PGlite's dumpDataDir, and kept in the OS temp directory under a
// key of everything that shapes it: the pinned dependencies (PGlite's version among them), and the
// text of the migrations and of the migrator. Every test still runs migrateToLatest on its copy (a
// no-op on a current template, and what would bring a stale one up to date). docs/decisions.md,
// "Test start-up".
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrate.js';

const infra = fileURLToPath(new URL('../../src/infra/', import.meta.url));

function templateKey(): string {
  const h = createHash('sha256');
  // The installed PGlite is the exact version package.json pins.
  h.update(readFileSync(new URL('../../package.json', import.meta.url)));
  const migrations = join(infra, 'migrations');
  for (const file of readdirSync(migrations).sort()) h.update(`${file}\n`).update(readFileSync(join(migrations, file)));
  h.update(readFileSync(join(infra, 'migrate.ts')));
  return h.digest('hex').slice(0, 24);
}

async function makeTemplate(path: string): Promise<Blob> {
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateToLatest(handle.db);
    const dump = await handle.pglite!.dumpDataDir('none');
    // Written under a name of its own, then renamed: two test files making it at once both succeed,
    // and no file ever reads half a template.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
    return dump;
  } finally {
    await handle.close();
  }
}

let template: Promise<Blob> | undefined;

/** The migrated template's data directory (made on first use in this run of the suite). */
export function migratedPgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const path = join(tmpdir(), `travelog-pglite-template-${templateKey()}.tar`);
    try {
      return new Blob([readFileSync(path)]);
    } catch {
      return makeTemplate(path);
    }
  })();
  return template;
}
