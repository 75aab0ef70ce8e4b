// The unit batch: which files share it, and a real run of one through Node's runner, where each file
// is its own suite, what one file's tests set does not reach the next, and a failure names its file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../../common/data-layout.ts';
import { ownProcessMarker, splitBatchable, unitBatchFileName, writeUnitBatch } from './test-batch.ts';
import { addTopLevelDuration, type TestDurations, type TestEventData } from './test-durations.ts';

test('files under test/, with the marker or with a top-level await keep a process each; the rest share the batch, in order', async () => {
  const sources: Record<string, string> = {
    '/repo/gateway/meter.test.ts': "import { test } from 'node:test';",
    '/repo/test/integration/seat.test.ts': '',
    '/repo/sandbox/umask.test.ts': `// ${ownProcessMarker}: it changes the process's umask\n`,
    '/repo/common/a.test.ts': '',
    '/repo/testing/b.test.ts': '',
    '/repo/simfleet/server.test.ts':
      "const fleet = await startSimFleet();\ntest('x', async () => {\n  await fleet.close();\n});",
    '/repo/common/c.test.ts':
      "test('x', async () => {\n  await wait();\n});\n// await at the start of a comment is no statement\n",
  };
  const split = await splitBatchable(
    Object.keys(sources).map((f) => path.relative('/repo', f)),
    '/repo',
    async (file) => sources[file]!,
  );
  assert.deepEqual(split, {
    batched: ['gateway/meter.test.ts', 'common/a.test.ts', 'testing/b.test.ts', 'common/c.test.ts'],
    alone: ['test/integration/seat.test.ts', 'sandbox/umask.test.ts', 'simfleet/server.test.ts'],
  });
});

test("a batch runs each file as a suite named by its path, puts back what a file's tests changed, and blames a failure on its file", async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'trl-batch-src-'));
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'trl-batch-run-'));
  t.after(() =>
    Promise.all([rm(root, { recursive: true, force: true }), rm(runDir, { recursive: true, force: true })]),
  );
  await writeFile(
    path.join(root, 'first.test.ts'),
    [
      "import { test, mock } from 'node:test';",
      "test('sets a variable and fakes the clock, and leaves both', () => {",
      "  process.env.TRL_BATCH_LEAK = 'yes';",
      "  mock.timers.enable({ apis: ['setTimeout'] });",
      '});',
    ].join('\n'),
  );
  await writeFile(
    path.join(root, 'second.test.ts'),
    [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "test('sees neither', async () => {",
      '  assert.equal(process.env.TRL_BATCH_LEAK, undefined);',
      '  await new Promise((resolve) => setTimeout(resolve, 5));',
      '});',
    ].join('\n'),
  );
  await writeFile(
    path.join(root, 'third.test.ts'),
    ["import { test } from 'node:test';", "test('fails', () => { throw new Error('the third file fails'); });"].join(
      '\n',
    ),
  );
  const batch = await writeUnitBatch(runDir, ['first.test.ts', 'second.test.ts', 'third.test.ts'], root);
  assert.equal(path.basename(batch), unitBatchFileName);

  // Node's runner, in a process of its own as `trl test` starts it (run() does not run files from inside a test file).
  await writeFile(
    path.join(runDir, 'driver.mjs'),
    [
      "import { run } from 'node:test';",
      'const stream = run({ files: [process.argv[2]] });',
      "for (const kind of ['test:pass', 'test:fail']) stream.on(kind, (d) => console.log(JSON.stringify({ kind, nesting: d.nesting, name: d.name, file: d.file, details: { duration_ms: d.details.duration_ms } })));",
      'for await (const event of stream) void event;',
    ].join('\n'),
  );
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(runDir, 'driver.mjs'), batch],
    { cwd: repoRoot, env },
  );
  const events = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TestEventData & { kind: string; name: string });
  const passed = events.filter((e) => e.kind === 'test:pass').map((e) => `${e.nesting}:${e.name}`);
  const failed = events.filter((e) => e.kind === 'test:fail').map((e) => `${e.nesting}:${e.name}`);
  const seconds: TestDurations = {};
  for (const event of events) addTopLevelDuration(seconds, event, root);

  assert.deepEqual(
    passed.filter((p) => p.startsWith('0:')),
    ['0:first.test.ts', '0:second.test.ts'],
  );
  assert.ok(passed.includes('1:sees neither'), `passed: ${passed.join(', ')}`);
  assert.deepEqual(
    failed.filter((f) => !f.startsWith('0:') || f === '0:third.test.ts'),
    ['1:fails', '0:third.test.ts'],
  );
  assert.deepEqual(Object.keys(seconds).sort(), ['first.test.ts', 'second.test.ts', 'third.test.ts']);
});
