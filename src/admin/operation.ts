// What an operator operation is: plain arguments (the CLI's flags) in, plain JSON out, run by the
// CLI in direct mode or by the loopback admin API. Operations live in src/admin and call the plain
// functions the features export; no feature imports from here.
import { validationError } from '../domain/errors.js';
import type { Db } from '../infra/database.js';
import type { EventStore } from '../eventstore/port.js';
import type { ProjectionRunner } from '../../projections/runner.js';

export interface OperationContext {
  db: Db;
  store: EventStore;
  runner: ProjectionRunner;
  /** The server's per-diem rate tables, refreshed after an import (absent in the CLI's direct mode). */
  perDiemRateTables?: { invalidate(): void };
}

export type Args = Record<string, string | boolean | undefined>;
export type Progress = (done: number, total: number, label?: string) => void;
export type Operation = (ctx: OperationContext, args: Args, progress: Progress) => Promise<unknown>;

/** A required flag: `--key` with a non-blank value. */
export const str = (args: Args, key: string): string => {
  const v = args[key];
  if (typeof v !== 'string' || v.trim() === '') throw validationError({ [key]: [`--${key} is required.`] });
  return v;
};

export const optStr = (args: Args, key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An optional id flag (`--tenant`): absent, or a UUID lower-cased as ids are stored; else a 400 keyed by the flag. */
export const optUuidArg = (args: Args, key: string, what: string): string | undefined => {
  const v = optStr(args, key)?.trim();
  if (v === undefined) return undefined;
  if (!UUID.test(v)) throw validationError({ [key]: [`--${key} is ${what} (a UUID).`] });
  return v.toLowerCase();
};

/** A required id flag (`--tenant`, `--id`), as optUuidArg. */
export const uuidArg = (args: Args, key: string, what: string): string => {
  str(args, key); // absent or blank: "--key is required."
  return optUuidArg(args, key, what)!;
};
