import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');

function startMain(args: string[], stdin: 'ignore' | 'pipe' = 'ignore') {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile, ...args], { stdio: [stdin, 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return { child, output: () => ({ stdout, stderr }) };
}

test('main prints one ready line, serves, and exits cleanly on SIGTERM', async () => {
  const { child, output } = startMain(['--port', '0', '--time-scale', '0']);
  try {
    const deadline = Date.now() + 20_000;
    while (!output().stdout.includes('\n') && Date.now() < deadline && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const { stdout, stderr } = output();
    assert.match(
      stdout,
      /^trl-sim-fleet listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(simulated models, not real LLMs\)\n$/,
      stderr,
    );
    const url = /(http:\/\/\S+)/.exec(stdout)![1]!;
    const response = await fetch(`${url}/models`);
    assert.equal(response.status, 200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    assert.equal(output().stdout.split('\n').filter(Boolean).length, 1, 'exactly one line on stdout');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test("--exit-with-stdin: the fleet ends when its parent's pipe closes (a SIGKILLed worker leaves no fleet behind)", async () => {
  const { child, output } = startMain(['--port', '0', '--time-scale', '0', '--exit-with-stdin'], 'pipe');
  try {
    const deadline = Date.now() + 20_000;
    while (!output().stdout.includes('\n') && Date.now() < deadline && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.match(output().stdout, /listening on/, output().stderr);
    child.stdin!.end();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('bad arguments get a clear message and exit 64', async () => {
  const { child, output } = startMain(['--time-scale', 'fast']);
  const [code] = await once(child, 'exit');
  assert.equal(code, 64);
  assert.match(output().stderr, /--time-scale must be a non-negative number/);
});

test('a scenarios directory that does not exist stops the start with a clear message', async () => {
  const { child, output } = startMain(['--scenarios-dir', '/nonexistent/scenarios']);
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.match(output().stderr, /cannot start: .*does not exist/);
  assert.equal(output().stdout, '');
});

test('--mode takes fast or realistic, and says so when it is neither', async () => {
  const { child, output } = startMain(['--mode', 'slow']);
  const [code] = await once(child, 'exit');
  assert.equal(code, 64);
  assert.match(output().stderr, /--mode must be one of fast, realistic, not slow/);
});
