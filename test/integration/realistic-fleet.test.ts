// The realistic sim fleet end to end: a pack on one scenario through the built-in agent, Docker, the
// policy host, the gateway and the verifier, with the fleet in realistic mode. What the fast fleet never
// shows must show: a long trajectory, a growing prompt, commands that fail, and provenance that still
// covers what the agent received.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';

let harness: Harness;
let result: EvaluationResult;

before(async () => {
  harness = await startHarness({ simFleetMode: 'realistic' });
  result = await harness.evaluate({
    pack: { kind: 'directory', path: path.join(repoRoot, 'policy', 'examples', 'pin-glm-flash') },
    agent: 'loop',
    scenarios: ['csv-sales-report'],
    seed: 2,
  });
});
after(async () => harness?.close());

test('a realistic trajectory: many turns, a growing prompt, failing commands, provenance intact', async () => {
  assert.equal(result.status, 'completed', JSON.stringify(result.rejection ?? result.perScenario[0]?.error));
  const scenario = result.perScenario[0]!;
  const rows = (await readFile(scenario.artifacts.modelCallLog!.path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { phase: string; promptTokens?: number; request?: { messages: unknown[] } });
  const ends = rows.filter((row) => row.phase === 'end');
  assert.ok(ends.length >= 8 && ends.length <= 40, `${ends.length} model calls`);
  const prompts = ends.map((row) => row.promptTokens ?? 0);
  assert.ok(prompts.at(-1)! > prompts[0]! * 1.5, `prompt tokens ${prompts[0]} → ${prompts.at(-1)}`);
  const lastRequest = JSON.stringify(rows.filter((row) => row.phase === 'start').at(-1)!.request);
  assert.match(lastRequest, /trl-sim-step model=glm-5\.3-flash kind=explore/);
  assert.ok(scenario.costUsd > 0.002, `cost ${scenario.costUsd}`);
  assert.ok(scenario.provenance && scenario.provenance.coverage >= 0.95, JSON.stringify(scenario.provenance));
});
