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
