// One process at a time opens an embedded database. PGlite takes no lock of its own: a second
// server started on the same DATA_DIR served, each process saw only its own writes, acknowledged
// writes of one were lost at the next start, and after kill -9 of both the directory never opened
// again (the embedded-default crash try, session 26). So the directory is claimed first, by a file
// created exclusively that names the owner: its pid and, on Linux, the process's start time, so a
// pid reused after a crash or a container restart is not taken for the owner. A claim whose owner is
// gone is taken over. Lock files with leases (proper-lockfile) expire while the event loop is busy,
// and PGlite runs on it: a long rebuild would let a second process in (docs/decisions.md).
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'travelog.lock';

export interface DataDirLock {
  /** Gives the directory up (only while this process still holds the claim). */
  release(): void;
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot; undefined off Linux. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live process other than this one, and the same one that started at `startTime` (when known). */
export function isRunning(pid: number, startTime: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false; // our own pid: an earlier life of ours
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTimeOf(pid);
  return startTime === undefined || now === undefined || now === startTime;
}

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const mine = `${process.pid} ${startTimeOf(process.pid) ?? '-'}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      return {
        release() {
          try {
            if (readFileSync(path, 'utf8') === mine) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
    }
    let held: string;
    try {
      held = readFileSync(path, 'utf8');
    } catch (err) {
      if (code(err) === 'ENOENT') continue; // given up meanwhile
      throw err;
    }
    const [pid, startTime] = held.trim().split(' ');
    if (isRunning(Number(pid), startTime === '-' ? undefined : startTime)) {
      throw new Error(
        `DATA_DIR ${dataDir} is in use by process ${pid}: one process at a time opens the embedded database ` +
          `(the CLI goes through the running server). Stop that process first; if no Travelog process runs, delete ${path}.`,
      );
    }
    // The owner is gone. Moving its claim aside is atomic, so of two processes starting at once only
    // one takes it over; the other finds the winner's claim on its next try.
    const aside = `${path}.${process.pid}`;
    try {
      renameSync(path, aside);
    } catch (err) {
      if (code(err) === 'ENOENT') continue;
      throw err;
    }
    const moved = readFileSync(aside, 'utf8');
    unlinkSync(aside);
    if (moved !== held) {
      // A claim made between our read and the move: give it back, and leave the directory to it.
      writeFileSync(path, moved, { flag: 'wx' });
      throw new Error(`DATA_DIR ${dataDir} was claimed by another process at the same moment; retry once it has started.`);
    }
  }
  throw new Error(`DATA_DIR ${dataDir}: could not claim ${path}`);
}
