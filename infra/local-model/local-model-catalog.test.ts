import assert from 'node:assert/strict';
import test from 'node:test';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { defaultLocalModel, localModelMapping, localModels, localModelSpec } from './local-model-catalog.ts';

test('every allowlisted name is served by the chosen local model', () => {
  const names = loadAllowlist().models.map((model) => model.id);
  assert.equal(names.length, 8);
  const mapping = localModelMapping(names, localModelSpec());
  assert.deepEqual(Object.keys(mapping).sort(), [...names].sort());
  assert.ok(Object.values(mapping).every((id) => id === defaultLocalModel));
});

test('each model is pinned: wheel and GGUF sums are SHA256 hex, versions exact', () => {
  for (const spec of Object.values(localModels)) {
    assert.match(spec.sha256, /^[0-9a-f]{64}$/);
    assert.ok(spec.wheels.length > 0);
    for (const wheel of spec.wheels) {
      assert.match(wheel.sha256, /^[0-9a-f]{64}$/);
      assert.match(wheel.version, /^\d+(\.\d+)*$/);
    }
  }
});

test('an unknown model names the ones there are', () => {
  assert.throws(
    () => localModelSpec('llama-70b'),
    /TRL_LOCAL_MODEL must be one of smollm2-135m-instruct, gemma3-270m, qwen2.5-coder-0.5b-instruct; got "llama-70b"/,
  );
});
