// `.env` in the working directory, when present, fills the environment before the configuration is
// read (npm start and the CLI). Variables already set win: the file is a default for development,
// never an override of what an operator exported. Node's own loader reads it (the --env-file
// format); no package is needed for that.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const ENV_FILE = '.env';

/** Loads `.env` from `dir` (default: the working directory); returns the file it loaded, if any. */
export function loadEnvFile(dir = process.cwd()): string | undefined {
  const file = resolve(dir, ENV_FILE);
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}
