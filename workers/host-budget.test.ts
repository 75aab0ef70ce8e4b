import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibratedScenarioCost, hostBudget } from './host-budget.ts';

const gib = 1024 ** 3;
const machine = { memoryBytes: 24 * gib, cpus: 2 };

test("a host lends three quarters of the machine's memory and its cores unless the settings say otherwise", () => {
  const calibrated = { memoryBytes: gib, cpus: 0.25 };
  assert.deepEqual(hostBudget(undefined, calibrated, {}, machine), {
    memoryBytes: 18 * gib,
    cpus: 2,
    // Scenarios a quarter the calibrated size: 18 GiB / 256 MiB = 72, 2 cores / 0.0625 = 32.
    maxScenarios: 32,
  });
  const set = hostBudget(3, calibrated, { TRL_HOST_MEMORY_BYTES: String(2 * gib), TRL_HOST_CPUS: '1.5' }, machine);
  assert.deepEqual(set, { memoryBytes: 2 * gib, cpus: 1.5, maxScenarios: 3 });
});

test('the calibrated scenario cost comes from the settings, with the measured defaults', () => {
  assert.deepEqual(calibratedScenarioCost({ TRL_SCENARIO_MEMORY_BYTES: '1000', TRL_SCENARIO_CPUS: '0.5' }), {
    memoryBytes: 1000,
    cpus: 0.5,
  });
  const defaults = calibratedScenarioCost({});
  assert.ok(defaults.memoryBytes > 0 && defaults.cpus > 0);
});
