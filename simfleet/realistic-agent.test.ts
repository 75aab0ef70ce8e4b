import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confidentFinish, unsureFinish, type AgentReply } from './agent-behaviour.ts';
import { findAttemptMarks } from './attempt-command.ts';
import { decideRealisticTurn } from './realistic-agent.ts';
import type { ChatMessage } from './request-schema.ts';
import { afterToolCall, agentStart, allowlist, hermesTools, model, scenario, scenarios } from './testing/fixtures.ts';
import { exploreTurnsByDifficulty, trajectoryPlan } from './trajectory-calibration.ts';

function reply(modelId: string, messages: ChatMessage[], seed: number): AgentReply {
  return decideRealisticTurn({
    request: { messages, tools: hermesTools },
    model: model(modelId),
    models: allowlist.models,
    scenarios,
    seed,
    requestKey: 'k'.repeat(64),
  });
}

/** Plays a whole conversation with pretend tool results; returns the turns and whether it solved. */
function play(modelId: string, opening: ChatMessage[], seed: number, maxTurns = 60) {
  let messages = opening;
  const commands: string[] = [];
  for (let turn = 1; turn <= maxTurns; turn++) {
    const answer = reply(modelId, messages, seed);
    if (answer.kind === 'text') return { turns: turn, commands, final: answer.content };
    commands.push(answer.argumentsText);
    messages = afterToolCall(
      messages,
      { id: `call_${turn}`, function: { name: answer.toolName, arguments: answer.argumentsText } },
      'ok',
    );
  }
  throw new Error('no finish');
}

test('a trajectory explores, attempts once, checks, then finishes; the same seed plays the same', () => {
  const target = scenario('sqlite-orders-analytics');
  const run = play('glm-5.3-flash', agentStart(target), 7);
  const plan = trajectoryPlan(7, 'glm-5.3-flash', target);
  assert.equal(run.turns, plan.exploreTurns + 1 + plan.verifyTurns + 1);
  const [min, max] = exploreTurnsByDifficulty.hard;
  assert.ok(plan.exploreTurns >= min && plan.exploreTurns <= Math.round(max * 1.15));
  assert.match(run.commands[0]!, /SKILL\.md/);
  const attempts = run.commands.flatMap((command) => findAttemptMarks(command));
  assert.equal(attempts.length, 1);
  assert.equal(run.final, attempts[0]!.attempt === 'solve' ? confidentFinish : unsureFinish);
  assert.deepEqual(play('glm-5.3-flash', agentStart(target), 7), run);
});

test('some exploratory commands fail with a traceback-producing guess', () => {
  const target = scenario('csv-sales-report');
  let failing = 0;
  let total = 0;
  for (let seed = 0; seed < 20; seed++) {
    const run = play('qwen3.6-35b-a3b', agentStart(target), seed);
    total += run.commands.length;
    failing += run.commands.filter((c) => /_helpers as h|\.orig/.test(c)).length;
  }
  assert.ok(failing > total * 0.08 && failing < total * 0.35, `${failing} of ${total}`);
});

test('coaching in the system message raises the solve rate sharply; a cut instruction lowers it', () => {
  const target = scenario('stack-vm-interpreter');
  const rate = (opening: ChatMessage[]) => {
    let solved = 0;
    for (let seed = 0; seed < 200; seed++)
      if (play('qwen3.6-35b-a3b', opening, seed).final === confidentFinish) solved++;
    return solved / 200;
  };
  const honest = rate(agentStart(target));
  const coached = rate([
    { role: 'system', content: `Known answer:\n${target.hiddenLines!.slice(0, 10).join('\n')}` },
    agentStart(target)[1]!,
  ]);
  const cut = rate([agentStart(target)[0]!, { role: 'user', content: target.normalisedInstruction.slice(0, 500) }]);
  assert.ok(coached > honest + 0.4, `honest ${honest}, coached ${coached}`);
  assert.ok(cut < honest, `honest ${honest}, cut ${cut}`);
});

test('a request without tools about a scenario gets an adviser note, never the solution', () => {
  const target = scenario('csv-sales-report');
  const note = decideRealisticTurn({
    request: { messages: agentStart(target) },
    model: model('glm-5.2'),
    models: allowlist.models,
    scenarios,
    seed: 0,
    requestKey: 'k'.repeat(64),
  });
  assert.equal(note.kind, 'text');
  assert.match(note.content, /\[trl-sim-advice model=glm-5\.2 sound=(yes|no)\]/);
  assert.equal(findAttemptMarks(note.content).length, 0);
});
