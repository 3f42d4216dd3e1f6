// The server process's V8 flags (src/main/gc-tuning.ts) are set with v8.setFlagsFromString, which
// ignores a flag V8 does not know. A Node release that renamed or dropped one would silently undo
// the tuning, so each flag is checked on a command line, where an unknown flag is an error.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { PROCESS_V8_FLAGS, tuneGarbageCollector } from '../../src/main/gc-tuning.js';

const accepts = (flag: string): boolean => spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' }).status === 0;

t.test('this Node knows every flag the server process sets', async (t) => {
  t.ok(PROCESS_V8_FLAGS.length > 0);
  for (const flag of PROCESS_V8_FLAGS) t.ok(accepts(flag), `${flag} on ${process.version}`);
  t.notOk(accepts('--no-such-v8-flag-of-travelog'), 'an unknown flag is refused: the check can fail');
});

t.test('setting them in a running process', async (t) => {
  t.doesNotThrow(() => tuneGarbageCollector());
});
