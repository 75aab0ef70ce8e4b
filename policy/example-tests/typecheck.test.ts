import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { examplesDir } from '../testing/bundle-to-file.ts';

// esbuild strips types without checking them; miners copy these files, so they must type-check too.
test('the example policies type-check against the SDK (strict, no Node types)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(examplesDir, 'tsconfig.json')], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
});
