import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  confidentFinish,
  decideAgentTurn,
  modelSolves,
  solveProbability,
  unsureFinish,
  type AgentReply,
} from './agent-behaviour.ts';
import { findAttemptMarks } from './attempt-command.ts';
import type { ChatMessage } from './request-schema.ts';
import { afterToolCall, agentStart, allowlist, hermesTools, model, scenario, scenarios } from './testing/fixtures.ts';

function turn(modelId: string, messages: ChatMessage[], seed = 0, tools = hermesTools): AgentReply {
  return decideAgentTurn({
    request: { messages, tools },
    model: model(modelId),
    scenarios,
    seed,
    requestKey: 'k'.repeat(64),
  });
}

function asCall(reply: AgentReply, id = 'call_1') {
  assert.equal(reply.kind, 'tool_call');
  return { id, function: { name: reply.toolName, arguments: reply.argumentsText } };
}

/** A seed on which the model solves (or fails) the scenario. */
function seedWhere(modelId: string, scenarioName: string, solves: boolean): number {
  for (let seed = 0; seed < 1000; seed++)
    if (modelSolves(seed, model(modelId), scenario(scenarioName)) === solves) return seed;
  throw new Error('no such seed');
}

test('competence is base × difficulty × category, clamped', () => {
  assert.equal(solveProbability(model('glm-5.2'), scenario('sqlite-orders-analytics')), 0.85 * 0.72 * 1.0);
  assert.ok(
    Math.abs(
      solveProbability(model('glm-5.3-flash'), { difficulty: 'medium', category: 'debugging' }) - 0.7 * 0.85 * 1.0,
    ) < 1e-12,
  );
  assert.equal(solveProbability(model('qwen3.6-35b-a3b'), { difficulty: 'easy', category: 'unknown' }), 0.45);
  const boosted = {
    ...model('glm-5.2'),
    sim: {
      ...model('glm-5.2').sim,
      competence: { base: 0.9, byDifficulty: { easy: 2, medium: 1, hard: 1 }, byCategory: {} },
    },
  };
  assert.equal(solveProbability(boosted, { difficulty: 'easy', category: 'x' }), 1);
});

test('over many seeds kimi-k3 solves the hard scenario far more often than qwen3.6-35b-a3b', () => {
  const hard = scenario('sqlite-orders-analytics');
  assert.equal(hard.difficulty, 'hard');
  const count = (id: string) =>
    Array.from({ length: 400 }, (_, seed) => seed).filter((seed) => modelSolves(seed, model(id), hard)).length;
  const strong = count('kimi-k3');
  const weak = count('qwen3.6-35b-a3b');
  assert.ok(strong > weak * 3, `kimi-k3 solved ${strong}/400, qwen3.6-35b-a3b ${weak}/400`);
  // 0.94 × 0.82 × 1.0 and 0.45 × 0.4 × 0.9.
  assert.ok(Math.abs(strong / 400 - 0.7708) < 0.08 && Math.abs(weak / 400 - 0.162) < 0.06, `${strong} ${weak}`);
});

test('a solving model calls the terminal tool once with the reference solution in a quoted heredoc', () => {
  const target = scenario('fix-inventory-bug');
  const seed = seedWhere('glm-5.2', target.name, true);
  const reply = turn('glm-5.2', agentStart(target), seed);
  assert.equal(reply.kind, 'tool_call');
  assert.equal(reply.toolName, 'terminal');
  assert.equal(reply.malformed, false);
  const { command } = JSON.parse(reply.argumentsText) as { command: string };
  assert.ok(command.includes(`<<'TRL_SIM_EOF'\n${target.solveScript}`));
  assert.match(command, /bash "\$script" # trl-sim model=glm-5\.2 attempt=solve$/);
  assert.doesNotMatch(command, /trl-sim-undo/, 'nothing to undo on a first attempt');
});

test('after a solve anyone finishes confidently; after its own failure a model finishes unsure', () => {
  const target = scenario('csv-sales-report');
  const solveSeed = seedWhere('kimi-k3', target.name, true);
  const start = agentStart(target);
  const solved = afterToolCall(start, asCall(turn('kimi-k3', start, solveSeed)));
  for (const id of ['kimi-k3', 'qwen3.6-35b-a3b']) {
    assert.deepEqual(turn(id, solved, solveSeed), { kind: 'text', content: confidentFinish });
  }
  const failSeed = seedWhere('qwen3.6-35b-a3b', target.name, false);
  const failedReply = turn('qwen3.6-35b-a3b', start, failSeed);
  assert.ok(failedReply.kind === 'tool_call' && failedReply.attempt !== 'solve');
  const failed = afterToolCall(start, asCall(failedReply));
  assert.deepEqual(turn('qwen3.6-35b-a3b', failed, failSeed), { kind: 'text', content: unsureFinish });
  // Another model has not tried yet: it attempts, undoing the failed attempt first when it solves.
  const rescueSeed = Array.from({ length: 1000 }, (_, s) => s).find(
    (s) => !modelSolves(s, model('qwen3.6-35b-a3b'), target) && modelSolves(s, model('glm-5.2'), target),
  )!;
  const failedAgain = afterToolCall(start, asCall(turn('qwen3.6-35b-a3b', start, rescueSeed)));
  const rescue = turn('glm-5.2', failedAgain, rescueSeed);
  assert.ok(rescue.kind === 'tool_call' && rescue.attempt === 'solve');
  assert.match(rescue.argumentsText, /trl-sim-undo/);
});

test('failures are partial or wrong attempts, sometimes with malformed JSON arguments', () => {
  const target = scenario('sqlite-orders-analytics');
  const kinds = new Map<string, number>();
  let malformed = 0;
  let failures = 0;
  for (let seed = 0; seed < 600; seed++) {
    if (modelSolves(seed, model('qwen3.6-35b-a3b'), target)) continue;
    failures++;
    const reply = turn('qwen3.6-35b-a3b', agentStart(target), seed);
    assert.equal(reply.kind, 'tool_call');
    kinds.set(reply.attempt, (kinds.get(reply.attempt) ?? 0) + 1);
    const marks = findAttemptMarks(reply.argumentsText);
    assert.deepEqual(
      marks,
      [{ model: 'qwen3.6-35b-a3b', attempt: reply.attempt }],
      'even malformed arguments carry the marker',
    );
    if (reply.malformed) {
      malformed++;
      assert.throws(() => JSON.parse(reply.argumentsText));
    } else {
      assert.doesNotThrow(() => JSON.parse(reply.argumentsText));
    }
  }
  assert.ok(
    (kinds.get('partial') ?? 0) > failures * 0.35 && (kinds.get('wrong') ?? 0) > failures * 0.35,
    JSON.stringify([...kinds]),
  );
  const expected = (1 - 0.12) * 0.3;
  assert.ok(
    Math.abs(malformed / failures - expected) < 0.07,
    `malformed share ${malformed / failures}, expected about ${expected}`,
  );
});

test('without a shell tool the model answers in text, and plain chat gets a labelled reply', () => {
  const target = scenario('csv-sales-report');
  const noTool = turn('glm-5.2', agentStart(target), 0, []);
  assert.equal(noTool.kind, 'text');
  assert.match(noTool.content, /^\[simulated glm-5\.2\] .*```bash\n/s);
  const next = turn('glm-5.2', [...agentStart(target), { role: 'assistant', content: noTool.content }], 0, []);
  assert.equal(next.kind, 'text');
  assert.ok([confidentFinish, unsureFinish].includes(next.content));
  const chat = turn('qwen3.8-27b', [{ role: 'user', content: 'What is the capital of France?' }]);
  assert.equal(chat.kind, 'text');
  assert.match(chat.content, /^\[simulated qwen3.8-27b\] /);
  assert.equal(allowlist.models.length, 8);
});
