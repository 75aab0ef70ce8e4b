// Agents that hang, verifiers that crash or hang, and hostile agent output: each ends cleanly and
// is recorded, with infrastructure failures never scored as zeros.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, runDir } from '../../common/data-layout.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'scenarios');

describe('failure modes', () => {
  let harness: Harness;
  let result: EvaluationResult;
  const submissionId = uniqueId('failures');

  before(async () => {
    // Every verification starts its container: this file checks the verifiers themselves.
    harness = await startHarness({ verifierCache: false });
    result = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: examplePackDir },
      scenariosDir: fixtures,
      agent: 'oracle',
      scenarios: ['sleepy-agent', 'crashing-verifier', 'hanging-verifier', 'hostile-outputs'],
    });
  });
  after(async () => harness?.close());

  const scenario = (name: string) => {
    const found = result.perScenario.find((s) => s.name === name);
    assert.ok(found, `no result for ${name}`);
    return found;
  };

  test('an agent past its deadline is stopped, and its partial outputs are still verified', () => {
    const sleepy = scenario('sleepy-agent');
    assert.equal(sleepy.status, 'agent_timeout');
    assert.equal(sleepy.testsPassed, 1);
    assert.equal(sleepy.testsTotal, 2);
    // 10 s, not less: the deadline counts from before the solution's upload, and on a loaded machine (a full `trl test`)
    // 3 s once ended before the script's first line. Stopped near it, far from the script's 600 s sleep.
    assert.ok(
      sleepy.agentWallMs >= 10_000 && sleepy.agentWallMs < 60_000,
      `agent ran ${sleepy.agentWallMs} ms against a 10 s limit`,
    );
  });

  test('a crashing verifier is an infrastructure error after retries, not a zero', async () => {
    const crashed = scenario('crashing-verifier');
    assert.equal(crashed.status, 'infra_error');
    assert.match(crashed.error ?? '', /without writing ctrf.json, reward.txt or reward.json/);
    const attempts = await readdir(
      path.join(runDir(evaluationWorkflowId(submissionId)), 'scenarios', 'crashing-verifier'),
    );
    assert.deepEqual(attempts.filter((a) => a.startsWith('verifier')).sort(), [
      'verifier-attempt-1',
      'verifier-attempt-2',
      'verifier-attempt-3',
    ]);
    const log = await readFile(
      path.join(
        runDir(evaluationWorkflowId(submissionId)),
        'scenarios',
        'crashing-verifier',
        'verifier-attempt-1',
        'verifier.log',
      ),
      'utf8',
    );
    assert.match(log, /verifier exploded/);
  });

  test('a hanging verifier is stopped at its timeout and is an infrastructure error', () => {
    const hanging = scenario('hanging-verifier');
    assert.equal(hanging.status, 'infra_error');
    assert.match(hanging.error ?? '', /verifier timeout/);
  });

  test('an evaluation with infrastructure errors is incomplete', () => {
    assert.equal(result.status, 'incomplete');
  });

  test('hostile agent output: symlinks, fifos and setuid bits never reach the verifier; floods are bounded', async () => {
    const hostile = scenario('hostile-outputs');
    assert.equal(hostile.status, 'completed');
    assert.equal(hostile.testsPassed, hostile.testsTotal, 'the sanitising checks in the fixture tests failed');
    const agentLog = hostile.artifacts.agentLog;
    assert.ok(agentLog);
    assert.ok(agentLog.sizeBytes < 1024 * 1024, `agent log is ${agentLog.sizeBytes} bytes after a 20 MB flood`);
    const text = await readFile(agentLog.path, 'utf8');
    assert.match(text, /bytes omitted/);
    assert.match(text, /shadow-link: symlink entries are not copied; dropped/);
  });
});
