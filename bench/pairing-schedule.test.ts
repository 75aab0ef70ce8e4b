import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driftScales, schedulePositions } from './pairing-schedule.ts';

test('sequential puts the whole challenger first; interleaved puts both sides of scenario k side by side', () => {
  assert.deepEqual(schedulePositions('sequential', 3), { challenger: [0, 1, 2], incumbent: [3, 4, 5] });
  assert.deepEqual(schedulePositions('interleaved', 3), { challenger: [0, 2, 4], incumbent: [1, 3, 5] });
});

test('under drift the sequential incumbent meets a worse fleet on every scenario; interleaved, by one run only', () => {
  const n = 26;
  const gap = (schedule: 'sequential' | 'interleaved') => {
    const { challenger, incumbent } = schedulePositions(schedule, n);
    const c = driftScales(challenger, n, 0.2);
    const i = driftScales(incumbent, n, 0.2);
    return Array.from(c, (scale, j) => scale - i[j]!);
  };
  for (const difference of gap('sequential')) assert.ok(Math.abs(difference - 0.1) < 1e-12);
  for (const difference of gap('interleaved')) assert.ok(Math.abs(difference - 0.2 / 52) < 1e-12);
  assert.deepEqual(Array.from(driftScales([0, 5], n, 0)), [1, 1]);
});
