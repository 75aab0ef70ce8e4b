import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderEvaluation } from './result-view.ts';
import type { EvaluationResult, ScenarioResult } from '../contracts/results.ts';

const scenario = (name: string, over: Partial<ScenarioResult> = {}): ScenarioResult => ({
  name,
  status: 'completed',
  testsPassed: 1,
  testsTotal: 2,
  costUsd: 0.01,
  agentWallMs: 1000,
  verifierWallMs: 500,
  artifacts: {},
  ...over,
});
const result = (over: Partial<EvaluationResult> = {}): EvaluationResult => ({
  submissionId: 's',
  workflowId: 'w',
  status: 'completed',
  agent: 'loop',
  testsPassed: 1,
  testsTotal: 2,
  costUsd: 0.01,
  perScenario: [scenario('a')],
  ...over,
});

test('the ledger spend is printed only when retried attempts make it differ', () => {
  assert.doesNotMatch(renderEvaluation(result({ ledgerCostUsd: 0.01 })), /retried/);
  assert.match(
    renderEvaluation(result({ ledgerCostUsd: 0.0342 })),
    /spent including retried attempts: \$0\.0342 \(spend ledger\)/,
  );
});

test('a run stopped by a spend ceiling says so', () => {
  const text = renderEvaluation(
    result({
      status: 'incomplete',
      stoppedReason: 'per-submission spend ceiling of $1.0000 reached',
      perScenario: [
        scenario('a'),
        scenario('b', {
          status: 'ceiling_reached',
          testsPassed: 0,
          testsTotal: 0,
          costUsd: 0,
          error: 'not run: per-submission spend ceiling of $1.0000 reached',
        }),
      ],
    }),
  );
  assert.match(text, /stopped: per-submission spend ceiling/);
  assert.match(text, /ceiling_reached/);
  assert.match(text, /b: not run: per-submission/);
});
