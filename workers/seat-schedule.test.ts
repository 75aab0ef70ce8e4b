import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seatScheduleFor } from './seat-schedule.ts';

test('trl up keeps the seat Schedule and pauses it when it stops', () => {
  assert.deepEqual(seatScheduleFor(undefined), { pauseOnStop: true });
});

test('an orchestration worker of a split deployment keeps the Schedule and leaves it running when it stops', () => {
  assert.deepEqual(seatScheduleFor(['orchestration']), { pauseOnStop: false });
});

test('a sandbox-only worker leaves the Schedule alone', () => {
  assert.equal(seatScheduleFor(['sandbox']), undefined);
});
