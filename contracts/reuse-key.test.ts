import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reusableResults } from './reuse-key.ts';
import type { ReusedScenario, ReuseKey } from './submission.ts';

const key: ReuseKey = { packHash: 'p', scenarioHash: 'h-a', spec: 3, seed: 0, agent: 'hermes' };
const entry = (name: string, over: Partial<ReuseKey> = {}): ReusedScenario => ({
  from: 'evaluate-original',
  key: { ...key, ...over },
  result: {
    name,
    status: 'completed',
    testsPassed: 1,
    testsTotal: 1,
    costUsd: 0,
    agentWallMs: 0,
    verifierWallMs: 0,
    artifacts: {},
  },
});

test('a result is reused only when pack, spec, seed, agent and the scenario content all match', () => {
  const run = { packHash: 'p', spec: 3, seed: 0, agent: 'hermes' };
  const hashes = { a: 'h-a', b: 'h-b' };
  const offered = [
    entry('a'),
    entry('b', { scenarioHash: 'h-b-old' }),
    entry('a', { packHash: 'q' }),
    entry('a', { seed: 1 }),
    entry('a', { agent: 'oracle' }),
    entry('a', { spec: null }),
    entry('c', { scenarioHash: 'h-c' }),
  ];
  assert.deepEqual([...reusableResults(offered, run, hashes).keys()], ['a']);
  assert.equal(reusableResults(offered.slice(2), run, hashes).size, 0);
});

test('a rescore entry does not need the scenario content to match (its verifier changed)', () => {
  const run = { packHash: 'p', spec: 3, seed: 0, agent: 'hermes' };
  const rescore = { ...entry('a', { scenarioHash: 'before-the-fix' }), mode: 'verify' as const };
  assert.deepEqual([...reusableResults([rescore], run, { a: 'after-the-fix' }).keys()], ['a']);
  assert.equal(reusableResults([{ ...rescore, key: { ...rescore.key, seed: 1 } }], run, { a: 'x' }).size, 0);
});
