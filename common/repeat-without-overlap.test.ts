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
  await sleep(200);
  repeat.stop();
  assert.equal(most, 1);
  assert.ok(runs >= 2, `runs ${runs}`);
});
