// The formatter as a check: every TypeScript and JavaScript file of ours is as Biome writes it
// (biome.json: 120 columns, single quotes, trailing commas). Part of `trl test`; `npm run format`
// rewrites the tree. Packs (policy/examples/), scenarios and test fixtures are data whose bytes
// are hashed, so biome.json leaves them as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../common/data-layout.ts';

test('every source file is formatted as biome.json says', { timeout: 120_000 }, async () => {
  const biome = path.join(repoRoot, 'node_modules', '.bin', 'biome');
  const outcome = await promisify(execFile)(biome, ['format', '--max-diagnostics=20', '.'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => ({ code: 0, output: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  assert.equal(outcome.code, 0, `run \`npm run format\` to format these files:\n${outcome.output}`);
});
