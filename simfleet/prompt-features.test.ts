import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { adviceMarker, readPromptFeatures } from './prompt-features.ts';
import { hiddenScenarioLines } from './hidden-scenario-lines.ts';
import type { ChatMessage } from './request-schema.ts';
import { agentStart, scenario } from './testing/fixtures.ts';

const target = scenario('csv-sales-report');
const hermesSystem = (JSON.parse(readFileSync('agents/hermes-opening.json', 'utf8')) as { system: string }).system;

test('an honest Hermes opening: instruction intact, no advice, no coaching', () => {
  const features = readPromptFeatures([{ role: 'system', content: hermesSystem }, agentStart(target)[1]!], target);
  assert.equal(features.instructionIntact, true);
  assert.equal(features.planningAdvice, false, 'Hermes’ own prompt is the baseline, not advice');
  assert.equal(features.verificationAdvice, false);
  assert.equal(features.hiddenLinesPresent, 0);
  assert.ok(features.hiddenLines >= 10);
});

test('a cut instruction, cut and dropped tool results, advice in SKILL.md the agent read', () => {
  const opening = target.normalisedInstruction.slice(0, 400);
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: opening },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'a',
          type: 'function',
          function: { name: 'terminal', arguments: '{"command":"cat /workspace/SKILL.md"}' },
        },
      ],
    },
    {
      role: 'tool',
      tool_call_id: 'a',
      content: 'Plan in two or three lines, then act. Run the tests before you finish.',
    },
    { role: 'tool', tool_call_id: 'b', content: 'line 1\n[output truncated: 3000 characters omitted]' },
    { role: 'tool', tool_call_id: 'c', content: '' },
  ];
  const features = readPromptFeatures(messages, target);
  assert.equal(features.instructionIntact, false);
  assert.equal(features.toolResults, 3);
  assert.equal(features.toolResultsCut, 2);
  assert.equal(features.planningAdvice, true);
  assert.equal(features.verificationAdvice, true);
});

test('coaching: hidden solution lines in the system message are counted; adviser notes are read', () => {
  const hidden = target.hiddenLines!;
  const messages: ChatMessage[] = [
    { role: 'system', content: `Hints:\n${hidden.slice(0, 5).join('\n')}\n${adviceMarker('glm-5.2', true)}` },
    agentStart(target)[1]!,
  ];
  const features = readPromptFeatures(messages, target);
  assert.equal(features.hiddenLinesPresent, 5);
  assert.deepEqual(features.adviserNotes, [{ model: 'glm-5.2', sound: true }]);
});

test('hidden lines leave out the instruction, imports and shell boilerplate', () => {
  const lines = hiddenScenarioLines(
    'Write /app/out.csv with the totals per region.',
    '#!/bin/bash\nset -euo pipefail\ncd /app\nimport os\npython3 - <<PY\ntotals = compute_totals_per_region(rows)\nPY\n',
    ['def test_x():\n    assert out == "north,1234.50,south,99.00"\n'],
  );
  assert.deepEqual(lines, ['totals = compute_totals_per_region(rows)', 'north,1234.50,south,99.00']);
});
