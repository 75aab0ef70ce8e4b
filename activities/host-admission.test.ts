import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admitScenario, estimateCost, scenariosWithin, type ScenarioCost } from './host-admission.ts';

const mib = 1024 ** 2;
const scenario = (memoryMib: number, cpus = 0.1): ScenarioCost => ({ memoryBytes: memoryMib * mib, cpus });
const budget = { memoryBytes: 2048 * mib, cpus: 2 };

test('an empty host admits a scenario even when it is larger than the whole budget', () => {
  assert.deepEqual(admitScenario(budget, [], scenario(4096, 8)), { admitted: true });
});

test('memory binds first: admitted while the held scenarios and the next fit, refused with the figures', () => {
  assert.deepEqual(admitScenario(budget, [scenario(512), scenario(512), scenario(512)], scenario(512)), {
    admitted: true,
  });
  const refused = admitScenario(budget, [scenario(512), scenario(512), scenario(600)], scenario(512));
  assert.deepEqual(refused, {
    admitted: false,
    limit: 'memory',
    reason: 'memory: 3 scenarios hold 1.59 GiB of 2.00 GiB, one more needs 0.50 GiB',
  });
});

test('the CPU share binds when memory is plentiful', () => {
  const held = [scenario(100, 0.9), scenario(100, 0.9)];
  const refused = admitScenario(budget, held, scenario(100, 0.3));
  assert.equal(refused.admitted, false);
  assert.equal(!refused.admitted && refused.limit, 'cpu');
  assert.equal(
    !refused.admitted && refused.reason,
    'cpu: 2 scenarios use 1.80 cores of 2.00 cores, one more needs 0.30 cores',
  );
  assert.equal(admitScenario(budget, held, scenario(100, 0.2)).admitted, true);
});

test('a count cap refuses before the resources are spent', () => {
  const refused = admitScenario({ ...budget, maxScenarios: 2 }, [scenario(10), scenario(10)], scenario(10));
  assert.equal(!refused.admitted && refused.limit, 'scenarios');
  assert.equal(!refused.admitted && refused.reason, "count: 2 scenarios running, the host's cap of 2");
});

test('how many scenarios a budget holds: the tighter of memory and CPU, at least one, at most the cap', () => {
  assert.equal(scenariosWithin(budget, scenario(512, 0.1)), 4);
  assert.equal(scenariosWithin(budget, scenario(100, 0.5)), 4);
  assert.equal(scenariosWithin(budget, scenario(4096, 0.1)), 1);
  assert.equal(scenariosWithin({ ...budget, maxScenarios: 3 }, scenario(1, 0.01)), 3);
  assert.equal(scenariosWithin(budget, scenario(1024, 0)), 2, 'no CPU measured: memory alone');
});

test('the estimate is the calibrated default until three scenarios were measured, then the largest recent one with headroom', () => {
  const calibrated = scenario(1024, 0.2);
  assert.deepEqual(estimateCost(calibrated, [scenario(300), scenario(400)]), calibrated);
  const estimate = estimateCost(calibrated, [scenario(300, 0.05), scenario(400, 0.02), scenario(200, 0.1)]);
  assert.equal(estimate.memoryBytes, Math.round(400 * mib * 1.1));
  assert.ok(Math.abs(estimate.cpus - 0.11) < 1e-9);
  const old = Array.from({ length: 20 }, () => scenario(100));
  assert.equal(
    estimateCost(calibrated, [scenario(900), ...old]).memoryBytes,
    Math.round(100 * mib * 1.1),
    'only the last 20 count',
  );
});

test("the engine's address pools bind: each scenario holds two networks, and an empty host still takes one", () => {
  const held = [scenario(10), scenario(10)];
  assert.equal(admitScenario({ ...budget, networks: 6 }, held, scenario(10)).admitted, true);
  const refused = admitScenario({ ...budget, networks: 5 }, held, scenario(10));
  assert.deepEqual(refused, {
    admitted: false,
    limit: 'networks',
    reason:
      "networks: 2 scenarios hold 4 of the 5 Docker networks the engine's address pools leave this host, one more needs 2",
  });
  assert.equal(admitScenario({ ...budget, networks: 0 }, [], scenario(10)).admitted, true);
});
