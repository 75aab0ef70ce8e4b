// The guard that keeps a file with something left alive from holding the whole run: such a file fails, naming what
// holds it, and a file that ends on its own is untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const guard = pathToFileURL(path.join(import.meta.dirname, 'leftover-handles.mjs')).href;

/** Runs a test file whose body is `body`, with the guard at a 300 ms grace. */
async function runFile(body: string): Promise<{ code: number | null; stderr: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-leftover-'));
  const file = path.join(dir, 'probe.mjs');
  await writeFile(
    file,
    [
      "import { test } from 'node:test';",
      "import { spawn } from 'node:child_process';",
      `import { failOnLeftovers } from ${JSON.stringify(guard)};`,
      'failOnLeftovers(300);',
      body,
    ].join('\n'),
  );
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}

test('a file that leaves a child process running fails, naming what holds it, instead of running forever', async () => {
  const { code, stderr } = await runFile(
    "let left; test('leaves a child', () => { left = spawn('sleep', ['600']); });\n" +
      "process.on('exit', () => left?.kill());",
  );
  assert.equal(code, 1);
  assert.match(stderr, /still alive 0\.3 s after its last test, held by: .*ProcessWrap/);
});

test('a file that ends on its own exits passed and says nothing', async () => {
  const { code, stderr } = await runFile("test('passes', () => {});");
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /still alive/);
});
