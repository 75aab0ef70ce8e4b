import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluationSearchAttributes, searchAttributes } from './temporal-names.ts';
import type { Submission } from './submission.ts';

const local: Submission = {
  submissionId: 's1',
  pack: { kind: 'directory', path: '/packs/p' },
  agent: 'hermes',
  scenarios: [],
  seed: 0,
};

function byName(pairs: ReturnType<typeof evaluationSearchAttributes>): Record<string, unknown> {
  return Object.fromEntries(pairs.map((pair) => [pair.key.name, pair.value]));
}

test('an evaluation starts queued with its id and role; hotkey and rerun only when the submission has them', () => {
  assert.deepEqual(byName(evaluationSearchAttributes(local, 'local')), {
    [searchAttributes.submissionId.name]: 's1',
    [searchAttributes.status.name]: 'queued',
    [searchAttributes.role.name]: 'local',
  });
  const seated = byName(
    evaluationSearchAttributes({ ...local, hotkey: '5F3sa2TJ', rerunOf: 'evaluate-s0' }, 'challenger'),
  );
  assert.equal(seated[searchAttributes.role.name], 'challenger');
  assert.equal(seated[searchAttributes.hotkey.name], '5F3sa2TJ');
  assert.equal(seated[searchAttributes.rerunOf.name], 'evaluate-s0');
});
