import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPythonSyntax } from './python-syntax.ts';
import type { CanonicalPack } from './canonical-pack.ts';

const pack = (files: Record<string, string>): CanonicalPack => ({
  schema_version: 1,
  files: { 'SKILL.md': '# p\n', ...files },
});

test('a Python pack that parses has no problem; nothing is executed', async () => {
  assert.deepEqual(
    await checkPythonSyntax(
      pack({
        'policy.py': 'import os\nos._exit(3)\nraise SystemExit(1)\n',
        'lib/helpers.py': 'def f():\n    return 1\n',
      }),
    ),
    [],
  );
  assert.deepEqual(await checkPythonSyntax(pack({ 'policy.json': '{}' })), []);
});

test('a syntax error is named by file and line', async () => {
  const problems = await checkPythonSyntax(pack({ 'policy.py': 'x = 1\ndef broken(:\n    pass\n' }));
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.code, 'python_syntax_invalid');
  assert.match(problems[0]!.message, /^policy\.py:2: /);
});

test('hostile nesting costs the parser process, not the worker', async () => {
  const problems = await checkPythonSyntax(pack({ 'policy.py': `x = ${'('.repeat(20_000)}1${')'.repeat(20_000)}\n` }));
  assert.equal(problems.length, 1);
  assert.match(problems[0]!.message, /policy\.py/);
});
