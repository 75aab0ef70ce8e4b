// A sandbox host runs its verifications on the cores they declare (common/core-gate.ts), on the real Temporal server
// and Docker: a host lent one core, given three evaluations whose verifier declares a core and takes a few seconds,
// runs their verifier containers one after another, and every evaluation still passes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures');

describe('a host lends its cores to one verification at a time, each the cores it declares', () => {
  let harness: Harness;
  let results: EvaluationResult[] = [];
  const seen = new Set<string>();
  let mostAtOnce = 0;
  let previousScenariosDir: string | undefined;

  before(async () => {
    const previous = { cpus: process.env.TRL_HOST_CPUS };
    previousScenariosDir = process.env.TRL_SIM_SCENARIOS_DIR;
    process.env.TRL_HOST_CPUS = '1';
    process.env.TRL_SIM_SCENARIOS_DIR = path.join(fixtures, 'scenarios');
    try {
      // Every verification starts its container: the same outputs three times would otherwise be verified once.
      harness = await startHarness({ verifierCache: false });
    } finally {
      if (previous.cpus === undefined) delete process.env.TRL_HOST_CPUS;
      else process.env.TRL_HOST_CPUS = previous.cpus;
    }
    // This process's verifier containers, read every 250 ms while the evaluations run: each lives 4 s or more.
    // A failed listing ends the watch and fails the file once the evaluations are done (never a rejection left unheard).
    let watching = true;
    let watchFailure: unknown;
    const watch = (async () => {
      while (watching) {
        const listed = await harness.docker.listContainers({
          filters: {
            label: [`${containerLabels.role}=verifier`, `${containerLabels.workerPid}=${process.pid}`],
          },
        });
        for (const container of listed) seen.add(container.Id);
        mostAtOnce = Math.max(mostAtOnce, listed.length);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })().catch((error: unknown) => {
      watchFailure = error;
    });
    try {
      results = await Promise.all(
        [1, 2, 3].map((seed) =>
          harness.evaluate({
            pack: { kind: 'directory', path: examplePackDir },
            agent: 'oracle',
            scenariosDir: path.join(fixtures, 'scenarios'),
            scenarios: ['slow-verifier'],
            seed,
          }),
        ),
      );
    } finally {
      watching = false;
      await watch;
    }
    if (watchFailure) throw watchFailure;
  });
  after(async () => {
    if (previousScenariosDir === undefined) delete process.env.TRL_SIM_SCENARIOS_DIR;
    else process.env.TRL_SIM_SCENARIOS_DIR = previousScenariosDir;
    await harness?.close();
  });

  test('three verifiers of a core each on a host of one core: never two at once, all three passing', () => {
    const outcomes = results.map((result) => result.perScenario.map((s) => [s.status, s.testsPassed, s.testsTotal]));
    assert.deepEqual(outcomes, [[['completed', 1, 1]], [['completed', 1, 1]], [['completed', 1, 1]]]);
    assert.equal(seen.size, 3, 'each verification was seen running in its own container');
    assert.equal(mostAtOnce, 1, `${mostAtOnce} verifier containers ran at once on a host lent one core`);
  });
});
