import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { scenariosDir } from '../common/data-layout.ts';
import { loadSimScenarios, recognizeScenario } from './scenario-recognition.ts';
import type { ChatMessage } from './request-schema.ts';

const scenarios = await loadSimScenarios();

function user(content: string): ChatMessage {
  return { role: 'user', content };
}

test('the repository scenarios load with their solutions and metadata', () => {
  assert.ok(scenarios.length >= 3);
  const csv = scenarios.find((s) => s.name === 'csv-sales-report');
  assert.ok(csv);
  assert.equal(csv.difficulty, 'easy');
  assert.equal(csv.category, 'data-wrangling');
  assert.match(csv.solveScript, /report\.json/);
  assert.ok(csv.partialScript);
  assert.deepEqual(csv.agentOutputs, ['/app/report.json']);
});

test('every scenario is recognised from its instruction, reflowed and wrapped by an agent', async () => {
  for (const scenario of scenarios) {
    const instruction = await readFile(path.join(scenariosDir, scenario.name, 'instruction.md'), 'utf8');
    const reflowed = instruction.replace(/\n/g, '\n\n  ');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are an agent.' },
      user(`Task:\n${reflowed}\nWork in /app.`),
    ];
    assert.equal(recognizeScenario(messages, scenarios)?.name, scenario.name);
  }
});

test('a large overlap with the opening is enough, a loose mention is not', async () => {
  const instruction = await readFile(path.join(scenariosDir, 'sqlite-orders-analytics', 'instruction.md'), 'utf8');
  const opening = instruction.slice(0, 320).replace(/`/g, '');
  assert.equal(
    recognizeScenario([user(`Please do this:\n${opening} ... (rest omitted)`)], scenarios)?.name,
    'sqlite-orders-analytics',
  );
  assert.equal(recognizeScenario([user('Write some SQLite queries about orders for a shop.')], scenarios), undefined);
  assert.equal(
    recognizeScenario([{ role: 'system', content: instruction }, user('hi')], scenarios),
    undefined,
    'only user messages count',
  );
});
