import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  activitySummary,
  evaluationSummary,
  progressDetails,
  resultDetails,
  seatDetails,
  summarized,
} from './run-metadata.ts';
import type { EvaluationResult } from '../contracts/results.ts';
import type { Submission } from '../contracts/submission.ts';
import type { SeatView } from '../contracts/seat.ts';

const scenario = { name: 'csv-sales-report', dir: '/s/csv-sales-report' };

test('each activity call is summarized by its scenario and try (the UI shows the type before it)', () => {
  assert.equal(activitySummary('runScenario', [{ scenario, agent: 'hermes' }]), 'csv-sales-report');
  assert.equal(activitySummary('runScenario', [{ scenario, round: 2 }]), 'csv-sales-report · try 2');
  assert.equal(activitySummary('verifyScenario', [{ scenario, outputs: {} }]), 'csv-sales-report');
  assert.equal(activitySummary('prepareScenario', [scenario]), 'csv-sales-report');
  assert.equal(
    activitySummary('fetchPack', [{ kind: 'url', url: 'https://x/p.json', sha256: 'ab'.repeat(32) }]),
    `pack ${'ab'.repeat(6)}`,
  );
  assert.equal(activitySummary('fetchPack', [{ kind: 'directory', path: '/packs/single-model/' }]), 'single-model');
  assert.equal(activitySummary('preEval', [{ pack: { packHash: 'cd'.repeat(32) } }]), `pack ${'cd'.repeat(6)}`);
  assert.equal(activitySummary('resolveScenarios', [{ names: [] }]), 'the active set');
  assert.equal(
    activitySummary('aggregate', [{ packHash: 'ef'.repeat(32), perScenario: [{}, {}] }]),
    `pack ${'ef'.repeat(6)} · 2 scenarios`,
  );
  assert.equal(activitySummary('recordSeatDecision', [{ netuid: 11, record: { number: 3 } }]), 'decision #3');
  assert.equal(activitySummary('readChallengers', [{ netuid: 11 }]), 'subnet 11');
  assert.equal(activitySummary('anything', [undefined]), 'anything');
  assert.equal(activitySummary('setSeatWeights', [{}]), 'setSeatWeights');
});

test('the summarized proxy passes the summary with the arguments, untouched', async () => {
  const calls: { options: unknown; args: unknown[] }[] = [];
  const activity = Object.assign(async () => 'plain', {
    executeWithOptions: async (options: unknown, args: unknown[]) => {
      calls.push({ options, args });
      return 'with options';
    },
  });
  const proxy = summarized({ runScenario: activity });
  assert.equal(await proxy.runScenario(), 'with options');
  const input = { scenario, round: 3 };
  await (proxy.runScenario as unknown as (input: unknown) => Promise<unknown>)(input);
  assert.deepEqual(calls[1], { options: { summary: 'csv-sales-report · try 3' }, args: [input] });
});

const submission: Submission = {
  submissionId: 's1',
  pack: { kind: 'url', url: 'https://example.org/p.json', sha256: '12'.repeat(32) },
  agent: 'hermes',
  scenarios: [],
  seed: 0,
  hotkey: '5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX',
};

test('the static summary names role, pack, hotkey (or local) and agent', () => {
  assert.equal(evaluationSummary(submission, 'challenger'), `challenger · pack ${'12'.repeat(6)} · 5F3sa2TJ… · hermes`);
  assert.equal(
    evaluationSummary(
      { ...submission, hotkey: undefined, pack: { kind: 'directory', path: '/x/single-model' }, agent: 'oracle' },
      'local',
    ),
    'local · pack single-model · local · oracle',
  );
});

test('details end as a markdown table of the outcome, one row per scenario, pipes escaped', () => {
  const result: EvaluationResult = {
    submissionId: 's1',
    workflowId: 'evaluate-s1',
    status: 'completed',
    agent: 'oracle',
    packHash: 'aa'.repeat(32),
    manifestHash: 'bb'.repeat(32),
    testsPassed: 7,
    testsTotal: 9,
    costUsd: 0.0125,
    perScenario: [
      {
        name: 'a|b',
        status: 'completed',
        testsPassed: 5,
        testsTotal: 5,
        costUsd: 0.01,
        agentWallMs: 1,
        verifierWallMs: 1,
        artifacts: {},
      },
      {
        name: 'c',
        status: 'agent_timeout',
        testsPassed: 2,
        testsTotal: 4,
        costUsd: 0.0025,
        agentWallMs: 1,
        verifierWallMs: 1,
        artifacts: {},
      },
    ],
  };
  const lines = resultDetails(result).split('\n');
  assert.equal(lines[0], '**completed** · 7 of 9 tests passed · $0.0125');
  assert.match(lines[1]!, /spec manifest `bbbbbbbbbbbb`/);
  assert.deepEqual(lines.slice(-4), [
    '| scenario | status | tests | cost |',
    '|---|---|---|---|',
    '| a\\|b | completed | 5/5 | $0.0100 |',
    '| c | agent_timeout | 2/4 | $0.0025 |',
  ]);
  const running = progressDetails({
    stage: 'scenarios',
    packHash: 'aa'.repeat(32),
    scenarios: [
      { name: 'a', phase: 'agent' },
      { name: 'c', phase: 'done', status: 'completed', testsPassed: 3, testsTotal: 4 },
    ],
  });
  assert.match(running, /^\*\*scenarios\*\* · pack `aaaaaaaaaaaa` · 1 of 2 scenarios settled/);
  assert.match(running, /\| c \| completed \| 3\/4 \|$/);
});

test('the seat details list the latest decisions, newest first', () => {
  const view = {
    netuid: 11,
    incumbent: null,
    current: null,
    queue: [],
    decisions: 2,
    config: {} as SeatView['config'],
    pendingConfig: null,
    history: [1, 2].map((number) => ({
      number,
      packHash: String(number).repeat(64),
      hotkey: 'h',
      outcome: 'no_decision' as const,
      reason: 'r',
      decidedAt: '',
      evaluations: [],
      challengerTotal: 2.5,
      testsTotal: 9,
      evidence: { path: 'p', sha256: 's', manifestHash: 'cc'.repeat(32) },
    })),
  };
  const text = seatDetails(view);
  assert.match(text, /the seat is empty/);
  const rows = text.split('\n').filter((l) => /^\| \d/.test(l));
  assert.deepEqual(
    rows.map((r) => r.split('|')[1]!.trim()),
    ['2', '1'],
  );
  assert.match(rows[0]!, /\| 2\.50 \|  \| 9 \| `cccccccccccc` \|$/);
});
