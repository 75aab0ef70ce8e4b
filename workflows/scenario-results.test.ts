import test from 'node:test';
import assert from 'node:assert/strict';
import { failureTypes, packFaultTypeList } from '../contracts/failure-types.ts';
import type { AgentRunResult, ScenarioResult, VerificationResult } from '../contracts/results.ts';
import {
  addTry,
  agentFailed,
  attemptOf,
  everyTryFailedUpstream,
  lastTry,
  unrunResult,
  verified,
  type EarlierTries,
  type SpendStop,
} from './scenario-results.ts';

const artifact = { path: '/dev/null', sha256: '0'.repeat(64), sizeBytes: 0 };
const described: ScenarioResult = { ...unrunResult('csv-sales-report'), category: 'data', notes: ['from the task'] };

function agentRun(policy?: Partial<NonNullable<AgentRunResult['policy']>>): AgentRunResult {
  return {
    outcome: 'completed',
    exitCode: 0,
    wallMs: 1200,
    outputs: artifact,
    agentLog: artifact,
    outputNotes: [],
    ...(policy
      ? {
          policy: {
            costUsd: 0.02,
            calls: 3,
            agentRequests: 3,
            budgetRefusals: 0,
            faults: [],
            callLog: artifact,
            policyLog: artifact,
            ...policy,
          },
        }
      : {}),
  };
}

const verification = (testsPassed: number, testsTotal = 4): VerificationResult => ({
  testsPassed,
  testsFailed: testsTotal - testsPassed,
  testsTotal,
  source: 'ctrf',
  report: artifact,
  verifierLog: artifact,
  wallMs: 300,
  notes: ['read from ctrf.json'],
});

test("an agent's failure: a spend ceiling stops further paid scenarios (the first reason kept), a pack's fault is the policy's", () => {
  const spend: SpendStop = {};
  const ceiling = agentFailed(described, { type: failureTypes.spendCeilingReached, message: 'daily ceiling' }, spend);
  assert.deepEqual(
    { status: ceiling.status, error: ceiling.error, stop: spend.reason },
    {
      status: 'ceiling_reached',
      error: 'agent: daily ceiling',
      stop: 'daily ceiling',
    },
  );
  agentFailed(described, { type: failureTypes.spendCeilingReached, message: 'a later one' }, spend);
  assert.equal(spend.reason, 'daily ceiling');

  const packFault = packFaultTypeList[0]!;
  const fault = agentFailed(described, { type: packFault, message: 'its sandbox broke' }, spend);
  assert.deepEqual(
    { status: fault.status, unverified: fault.unverified, error: fault.error },
    {
      status: 'policy_error',
      unverified: true,
      error: `agent: ${packFault}: its sandbox broke`,
    },
  );
  assert.equal(agentFailed(described, { message: 'docker went away' }, {}).status, 'infra_error');
});

test('a verified run: tests, cost and notes; content the policy authored scores nothing', () => {
  const scored = verified(described, agentRun(), verification(3), { agentOutputs: artifact });
  assert.deepEqual(
    { status: scored.status, passed: scored.testsPassed, cost: scored.costUsd, notes: scored.notes },
    { status: 'completed', passed: 3, cost: 0, notes: ['from the task', 'read from ctrf.json'] },
  );
  const authored = verified(
    described,
    agentRun({ provenance: { coverage: 0.1, units: 100, coveredUnits: 10, turns: 3, uncovered: ['print(42)'] } }),
    verification(4),
    {},
  );
  assert.equal(authored.status, 'provenance_violation');
  assert.equal(authored.testsPassed, 0);
  assert.match(authored.error ?? '', /^provenance: only 10\.0%/);
});

test('tries run again after upstream failures: their spend is carried, in all and by model', () => {
  const earlier: EarlierTries = { costUsd: 0, byModelUsd: {} };
  const failedTry = { ...described, costUsd: 0.5, costByModelUsd: { a: 0.5 }, error: 'upstream_unavailable: 2 calls' };
  addTry(earlier, failedTry);
  const stands = lastTry(
    attemptOf({ ...described, status: 'completed', costUsd: 0.25, costByModelUsd: { a: 0.05, b: 0.2 } }),
    earlier,
    2,
  );
  assert.deepEqual(
    { cost: stands.costUsd, byModel: stands.costByModelUsd },
    { cost: 0.75, byModel: { a: 0.55, b: 0.2 } },
  );
  addTry(earlier, failedTry);
  const gaveUp = everyTryFailedUpstream(attemptOf(failedTry, 2), earlier, 2);
  assert.deepEqual({ cost: gaveUp.costUsd, byModel: gaveUp.costByModelUsd }, { cost: 1, byModel: { a: 1 } });
  assert.match(gaveUp.error ?? '', /in each of 2 tries; the scenario is the infrastructure's, never scored$/);
});
