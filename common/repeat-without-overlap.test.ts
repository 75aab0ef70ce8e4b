import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { repeatWithoutOverlap } from './repeat-without-overlap.ts';

test('a tick while the last run is still going is skipped, a failing run does not stop the next', async () => {
  let running = 0;
  let most = 0;
  let runs = 0;
  const repeat = repeatWithoutOverlap(async () => {
    runs += 1;
    running += 1;
    most = Math.max(most, running);
    await sleep(35);
    running -= 1;
    if (runs === 1) throw new Error('first run fails');
  }, 5);
  // Until two runs have started (about 80 ms on a quiet machine), not a fixed 200 ms a loaded one can miss.
  const deadline = performance.now() + 10_000;
  while (runs < 2 && performance.now() < deadline) await sleep(20);
  repeat.stop();
  assert.equal(most, 1);
  assert.ok(runs >= 2, `runs ${runs}`);
});
