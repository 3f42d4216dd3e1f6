// The embedded database's directory is claimed by one process (src/infra/data-dir-lock.ts): a live
// owner keeps it, a dead owner's claim is taken over, and so is a claim naming a pid that now belongs
// to another process (its start time differs: a pid reused after a crash or a container restart).
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOCK_FILE, lockDataDir } from '../../src/infra/data-dir-lock.js';

const startTimeOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

t.test(
  'a live owner keeps the directory; a gone one is taken over',
  { skip: !existsSync('/proc/self/stat') && 'needs /proc' },
  async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'travelog-lock-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, LOCK_FILE);
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    const gone = new Promise((r) => other.on('exit', r));
    t.teardown(() => other.kill('SIGKILL'));
    const pid = other.pid!;

    writeFileSync(file, `${pid} ${startTimeOf(pid)}\n`);
    t.throws(() => lockDataDir(dir), new RegExp(`is in use by process ${pid}`), 'another live process holds it');
    t.equal(readFileSync(file, 'utf8'), `${pid} ${startTimeOf(pid)}\n`, 'its claim is left as it was');

    writeFileSync(file, `${pid} 1\n`);
    const reused = lockDataDir(dir);
    t.match(readFileSync(file, 'utf8'), new RegExp(`^${process.pid} `), 'a live pid with another start time is not the owner');
    t.throws(() => lockDataDir(path.join(dir, 'missing')), /ENOENT/, 'a directory that does not exist is an error of its own');
    reused.release();
    t.notOk(existsSync(file), 'released: the claim is gone');

    writeFileSync(file, `${pid} ${startTimeOf(pid)}\n`);
    other.kill('SIGKILL');
    await gone;
    const after = lockDataDir(dir);
    t.match(readFileSync(file, 'utf8'), new RegExp(`^${process.pid} `), "a dead owner's claim is taken over");
    writeFileSync(file, `${pid} 1\n`);
    after.release();
    t.equal(readFileSync(file, 'utf8'), `${pid} 1\n`, 'a release leaves a claim that is not its own');
  },
);
