import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readBaseImageRecipe, baseImageTag } from './base-image.ts';

test('the base image recipe names the tools the scenarios and verifiers rely on', async () => {
  const recipe = await readBaseImageRecipe();
  for (const pkg of ['python3', 'python3-pytest', 'git'])
    assert.ok(recipe.packages.includes(pkg), `${pkg} missing from packages.txt`);
  assert.match(recipe.dockerfile, /useradd .*--uid 1000 .*agent/);
  assert.match(recipe.ctrfPlugin, /def pytest_sessionfinish/);
});

test('the image tag is a stable hash of the recipe', async () => {
  const [one, two] = await Promise.all([readBaseImageRecipe(), readBaseImageRecipe()]);
  assert.equal(baseImageTag(one), baseImageTag(two));
  assert.match(baseImageTag(one), /^trl-sandbox-base:[0-9a-f]{12}$/);
});
