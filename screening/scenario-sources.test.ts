import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readAllScenarioSources, sourceLimits, sourcesDigest } from './scenario-sources.ts';
import { writeScenariosDir } from './testing/scenario-folders.ts';

test('folders are read with their tests, solutions and environment; Dockerfile and binaries left out', async (t) => {
  const dir = await writeScenariosDir(
    {
      alpha: {
        instruction: '# Alpha\n',
        files: {
          'tests/test_outputs.py': 'def test_a(): pass\n',
          'solution/solve.sh': 'echo hi\n',
          'environment/data/a.csv': 'x,y\n1,2\n',
        },
      },
    },
    t,
  );
  await writeFile(path.join(dir, 'alpha', 'environment', 'data', 'blob.bin'), Buffer.from([1, 0, 2, 0]));
  const { sources, skipped } = await readAllScenarioSources(dir);
  assert.deepEqual(skipped, []);
  assert.equal(sources.length, 1);
  const alpha = sources[0]!;
  assert.deepEqual(
    alpha.tests.map((file) => file.path),
    ['test.sh', 'test_outputs.py'],
  );
  assert.deepEqual(
    alpha.solutions.map((file) => file.path),
    ['solve.sh'],
  );
  assert.deepEqual(
    alpha.environment.map((file) => file.path),
    ['data/a.csv'],
  );
});

test('a folder that does not load is skipped with its reason; the others are read', async (t) => {
  const dir = await writeScenariosDir(
    {
      good: { instruction: '# Good\n' },
      broken: { instruction: '# Broken\n', taskToml: 'not = toml = at all' },
    },
    t,
  );
  const { sources, skipped } = await readAllScenarioSources(dir);
  assert.deepEqual(
    sources.map((source) => source.name),
    ['good'],
  );
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0]!.name, 'broken');
  assert.match(skipped[0]!.reason, /task\.toml/);
});

test('large fixture files are read only up to the limit', async (t) => {
  const big = 'ORD-12345,'.repeat(sourceLimits.maxFileBytes / 5);
  const dir = await writeScenariosDir(
    { big: { instruction: '# Big\n', files: { 'environment/data/big.csv': big } } },
    t,
  );
  const { sources } = await readAllScenarioSources(dir);
  assert.equal(sources[0]!.environment[0]!.text.length, sourceLimits.maxFileBytes);
});

test('the digest changes with any text and not with reading order', async (t) => {
  const dir = await writeScenariosDir({ a: { instruction: '# A\n' }, b: { instruction: '# B\n' } }, t);
  const { sources } = await readAllScenarioSources(dir);
  assert.equal(sourcesDigest(sources), sourcesDigest([...sources].reverse()));
  assert.notEqual(sourcesDigest(sources), sourcesDigest([{ ...sources[0]!, instruction: '# A!\n' }, sources[1]!]));
});
