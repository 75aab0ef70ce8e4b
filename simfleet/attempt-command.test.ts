import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { attemptCommand, attemptMarker, findAttemptMarks, shellQuote } from './attempt-command.ts';
import type { SimScenario } from './scenario-recognition.ts';

function fakeScenario(root: string): SimScenario {
  const pkg = path.join(root, 'pkg');
  return {
    name: 'fake',
    category: 'debugging',
    difficulty: 'medium',
    normalisedInstruction: 'fix it',
    // Like a real reference fix: it only works on the original file.
    solveScript: `#!/bin/bash\nset -euo pipefail\ngrep -q '^bug$' ${pkg}/code.txt\nsed -i 's/^bug$/fixed/' ${pkg}/code.txt\ncat > ${root}/out.json <<'EOF'\n{"done": true, "literal": "$HOME"}\nEOF\n`,
    partialScript: `#!/bin/bash\nsed -i 's/^bug$/half-fixed/' ${pkg}/code.txt\n`,
    agentOutputs: [pkg, path.join(root, 'out.json')],
  };
}

/** Runs a command with its /tmp scratch files (temp scripts, undo copies) moved under the test's root. */
function run(command: string, root: string): string {
  mkdirSync(path.join(root, 'scratch'), { recursive: true });
  return execFileSync('bash', ['-c', command.replaceAll('/tmp/trl-sim-', `${root}/scratch/trl-sim-`)], {
    encoding: 'utf8',
  });
}

test('markers are found in commands and JSON-escaped arguments', () => {
  const text =
    JSON.stringify({ command: `ls\n${attemptMarker('glm-5.2', 'solve')}` }) + attemptMarker('qwen3.6-35b-a3b', 'wrong');
  assert.deepEqual(findAttemptMarks(text), [
    { model: 'glm-5.2', attempt: 'solve' },
    { model: 'qwen3.6-35b-a3b', attempt: 'wrong' },
  ]);
  assert.deepEqual(findAttemptMarks('no marker # trl-sim model=x attempt=maybe'), []);
});

test('the solve command runs the reference script verbatim and ends with its marker', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'simfleet-test-'));
  try {
    const scenario = fakeScenario(root);
    mkdirSync(path.join(root, 'pkg'));
    writeFileSync(path.join(root, 'pkg', 'code.txt'), 'bug\n');
    const command = attemptCommand({ scenario, model: 'glm-5.2', attempt: 'solve', afterFailedAttempt: false });
    assert.ok(command.endsWith(attemptMarker('glm-5.2', 'solve')));
    assert.deepEqual(findAttemptMarks(command), [{ model: 'glm-5.2', attempt: 'solve' }]);
    run(command, root);
    assert.equal(readFileSync(path.join(root, 'pkg', 'code.txt'), 'utf8'), 'fixed\n');
    assert.deepEqual(
      JSON.parse(readFileSync(path.join(root, 'out.json'), 'utf8')),
      { done: true, literal: '$HOME' },
      'no expansion inside the quoted heredoc',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a solve after a partial attempt starts again from the original outputs', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'simfleet-test-'));
  try {
    const scenario = fakeScenario(root);
    mkdirSync(path.join(root, 'pkg'));
    writeFileSync(path.join(root, 'pkg', 'code.txt'), 'bug\n');
    run(attemptCommand({ scenario, model: 'qwen3.6-35b-a3b', attempt: 'partial', afterFailedAttempt: false }), root);
    assert.equal(readFileSync(path.join(root, 'pkg', 'code.txt'), 'utf8'), 'half-fixed\n');
    run(attemptCommand({ scenario, model: 'glm-5.2', attempt: 'solve', afterFailedAttempt: true }), root);
    assert.equal(readFileSync(path.join(root, 'pkg', 'code.txt'), 'utf8'), 'fixed\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a wrong attempt looks around and writes an incomplete output without touching existing files', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'simfleet-test-'));
  try {
    const scenario = fakeScenario(root);
    mkdirSync(path.join(root, 'pkg'));
    writeFileSync(path.join(root, 'pkg', 'code.txt'), 'bug\n');
    const command = attemptCommand({
      scenario,
      model: 'deepseek-v4-flash-0731',
      attempt: 'wrong',
      afterFailedAttempt: false,
    });
    assert.deepEqual(findAttemptMarks(command), [{ model: 'deepseek-v4-flash-0731', attempt: 'wrong' }]);
    const output = run(command, root);
    assert.match(output, /code\.txt/);
    assert.equal(readFileSync(path.join(root, 'pkg', 'code.txt'), 'utf8'), 'bug\n');
    assert.deepEqual(JSON.parse(readFileSync(path.join(root, 'out.json'), 'utf8')), {});
    // No partial script: a partial request falls back to the wrong attempt's shape.
    const noPartial = { ...scenario, partialScript: undefined };
    assert.match(
      attemptCommand({ scenario: noPartial, model: 'x', attempt: 'partial', afterFailedAttempt: false }),
      /head -n 40/,
    );
    assert.ok(existsSync(`${root}/scratch/trl-sim-undo${root}/pkg/code.txt`));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a script containing the heredoc delimiter gets another one', () => {
  const scenario: SimScenario = {
    ...fakeScenario('/nowhere'),
    solveScript: 'echo TRL_SIM_EOF\ncat <<TRL_SIM_EOF\nx\nTRL_SIM_EOF\n',
  };
  const command = attemptCommand({ scenario, model: 'm', attempt: 'solve', afterFailedAttempt: false });
  assert.match(command, /<<'TRL_SIM_EOF_2'/);
  const root = mkdtempSync(path.join(tmpdir(), 'simfleet-test-'));
  try {
    assert.equal(run(command.replace(/bash "\$script" .*$/, 'bash "$script"'), root), 'TRL_SIM_EOF\nx\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});
