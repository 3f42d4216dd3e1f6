// The server process's V8 flags (src/main/gc-tuning.ts) are set with v8.setFlagsFromString, which
// does not fail on a flag V8 does not know: it writes "unrecognized flag" to stderr and goes on. A
// Node release that renamed or dropped one would quietly undo the tuning, so each flag is checked
// on a command line (where an unknown flag is an error) and set the way start.ts sets it.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROCESS_V8_FLAGS } from '../../src/main/gc-tuning.js';

const node = (args: string[]) => spawnSync(process.execPath, args, { encoding: 'utf8' });
const tuning = fileURLToPath(new URL('../../src/main/gc-tuning.ts', import.meta.url));

t.test('this Node knows every flag the server process sets', async (t) => {
  t.ok(PROCESS_V8_FLAGS.length > 0);
  for (const flag of PROCESS_V8_FLAGS) t.equal(node([flag, '-e', '0']).status, 0, `${flag} on ${process.version}`);
  t.not(node(['--no-such-v8-flag-of-travelog', '-e', '0']).status, 0, 'an unknown flag is refused: the check can fail');
});

t.test('setting them in a running process, as start.ts does, says nothing on stderr', async (t) => {
  const run = node(['--import', 'tsx', '-e', `(await import(${JSON.stringify(tuning)})).tuneGarbageCollector()`, '--input-type=module']);
  t.equal(run.status, 0, run.stderr);
  t.equal(run.stderr, '');
  const unknown = node(['-e', "require('node:v8').setFlagsFromString('--no-such-v8-flag-of-travelog')"]);
  t.match(unknown.stderr, /unrecognized flag/, 'an unknown flag would show there: the check can fail');
});
