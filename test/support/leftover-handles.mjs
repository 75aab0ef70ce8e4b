// Preloaded (`--import`) into each test file's process by `trl test`. A file whose tests are over but which still holds
// something alive (a child process, a server, a socket) never exits, and Node's runner waits for it forever: one unit
// file that left a policy runner running held a fresh clone's whole run for 20 minutes, and CI would have cut it at
// its limit with nothing said. Here, once the file's tests are over, it gets `graceMs` for its own cleanup; a process
// still alive then names what holds it and exits failed, which fails that file alone. Plain JavaScript, as
// data-dir-per-file.mjs, for the same reason (tsx's loader is not in place yet).
import { after } from 'node:test';
import { isMainThread } from 'node:worker_threads';

/** Time a file gets after its last test for its own `after` hooks and closing: a worker's shutdown takes seconds. */
export const leftoverGraceMs = 60_000;

/** After the file's tests, fails the process if it is still alive `graceMs` later. The timer is unref'd: a file that
 * ends on its own is never held by it. */
export function failOnLeftovers(graceMs = leftoverGraceMs) {
  after(() => {
    setTimeout(() => {
      process.stderr.write(
        `trl test: ${process.argv[1]} is still alive ${graceMs / 1000} s after its last test, held by: ` +
          `${process.getActiveResourcesInfo().join(', ')}. A test left it running (close it in a finally or t.after).\n`,
      );
      process.exit(1);
    }, graceMs).unref();
  });
}

if (isMainThread && process.argv[1]?.endsWith('.test.ts')) failOnLeftovers();
