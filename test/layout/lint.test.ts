// The Temporal rules as lint (eslint.config.mjs): deterministic workflow files, no floating
// promises. Part of `trl test`, so a violation fails the suite like any other test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { repoRoot } from '../../common/data-layout.ts';

test('eslint finds no violation of the Temporal rules', { timeout: 300_000 }, async () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const results = await eslint.lintFiles(['.']);
  const problems = results.flatMap((result) =>
    result.messages.map(
      (message) =>
        `${result.filePath.slice(repoRoot.length + 1)}:${message.line}:${message.column} ${message.ruleId ?? ''} ${message.message}`,
    ),
  );
  assert.deepEqual(problems, [], problems.join('\n'));
});
