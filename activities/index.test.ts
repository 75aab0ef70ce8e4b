import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activitiesOfRole } from './index.ts';

const all = Object.fromEntries(
  [
    'fetchPack',
    'preEval',
    'probePolicy',
    'claimSandboxHost',
    'prepareScenario',
    'runScenario',
    'verifyScenario',
    'aggregate',
  ].map((name) => [name, () => undefined]),
);

test('the probe runs on the shared sandbox queue and, for histories from before, on the evaluation queue', () => {
  assert.deepEqual(Object.keys(activitiesOfRole(all, 'sandbox-claim')).sort(), ['claimSandboxHost', 'probePolicy']);
  assert.deepEqual(Object.keys(activitiesOfRole(all, 'orchestration')).sort(), [
    'aggregate',
    'fetchPack',
    'preEval',
    'probePolicy',
  ]);
  assert.deepEqual(Object.keys(activitiesOfRole(all, 'sandbox-host')).sort(), [
    'prepareScenario',
    'runScenario',
    'verifyScenario',
  ]);
});
