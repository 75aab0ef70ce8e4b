import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { callTree, cpuProfileSchema, selfTimeByFunction, type CpuProfile, type Frame } from './cpu-profile-tree.ts';

/** A profile from a list of nodes [id, function, url, children, line from 0 (41 if not given)] and samples [node id,
 * µs]. */
function profileOf(nodes: [number, string, string, number[], number?][], samples: [number, number][]): CpuProfile {
  return cpuProfileSchema.parse({
    nodes: nodes.map(([id, functionName, url, children, lineNumber = 41]) => ({
      id,
      callFrame: { functionName, url, lineNumber, columnNumber: 0, scriptId: '0' },
      children,
    })),
    samples: samples.map(([id]) => id),
    timeDeltas: samples.map(([, micros]) => micros),
  });
}

function find(frame: Frame, name: string): Frame | undefined {
  if (frame.name === name) return frame;
  for (const child of frame.children) {
    const found = find(child, name);
    if (found) return found;
  }
  return undefined;
}

const app = 'file:///repo/gateway/model-gateway.ts';
// root → main → {parse, handle → {parse}, (idle)}; a second `handle` sibling of the same place merges.
const sample = profileOf(
  [
    [1, '(root)', '', [2, 6, 7]],
    [2, 'main', app, [3, 4, 8]],
    [3, 'parse', 'node:internal/json', [], 0],
    [4, 'handle', app, [5]],
    [5, 'parse', 'node:internal/json', [], 0],
    [6, '(idle)', '', []],
    [7, '(garbage collector)', '', []],
    [8, 'handle', app, []],
  ],
  [
    [3, 1000],
    [5, 2000],
    [5, 1000],
    [4, 500],
    [6, 9000],
    [7, 250],
    [8, 500],
    [2, -40],
  ],
);

test('own and total times per frame; idle left out; the same function at the same place under one caller is one frame', () => {
  const tree = callTree([{ label: 'main', profile: sample }]);
  assert.equal(tree.totalMs, 5.25);
  const main = find(tree, 'main')!;
  assert.equal(main.selfMs, 0, 'a negative time delta counts as nothing');
  assert.equal(main.totalMs, 5);
  assert.deepEqual(
    main.children.map((child) => [child.name, child.totalMs]),
    [
      ['handle', 4],
      ['parse', 1],
    ],
  );
  const handle = main.children[0]!;
  assert.equal(handle.selfMs, 1);
  assert.equal(handle.location, 'gateway/model-gateway.ts:42');
  assert.equal(main.children[1]!.location, 'node:internal/json', 'no line where the profile has none (line 0)');
  assert.equal(handle.category, 'project');
  assert.equal(handle.children[0]!.category, 'node');
  assert.equal(find(tree, '(idle)'), undefined);
  assert.equal(callTree([{ label: 'main', profile: sample }], { keepIdle: true }).totalMs, 14.25);
});

test('own time summed by function across its callers, largest first', () => {
  const rows = selfTimeByFunction(callTree([{ label: 'main', profile: sample }]));
  assert.deepEqual(
    rows.map((row) => [row.name, row.selfMs]),
    [
      ['parse', 4],
      ['handle', 1],
      ['(garbage collector)', 0.25],
    ],
  );
});

test('focus roots the tree at the outermost calls of a function, counting nested calls once', () => {
  const nested = profileOf(
    [
      [1, '(root)', '', [2, 5]],
      [2, 'handle', app, [3]],
      [3, 'handle', app, [4]],
      [4, 'parse', 'node:internal/json', []],
      [5, 'other', app, [6]],
      [6, 'handle', app, []],
    ],
    [
      [2, 1000],
      [3, 1000],
      [4, 1000],
      [6, 3000],
      [5, 7000],
    ],
  );
  const tree = callTree([{ label: 'main', profile: nested }], { focus: 'handle' });
  assert.equal(tree.totalMs, 6, 'every handle call and what it called; not `other`');
  assert.equal(tree.children.length, 1, 'the outermost handle frames of one place merge');
  assert.deepEqual(
    tree.children[0]!.children.map((child) => child.name),
    ['handle'],
    'a nested call stays under its caller',
  );
  assert.deepEqual(
    tree.children[0]!.children[0]!.children.map((child) => child.name),
    ['parse'],
  );
  assert.equal(find(tree, 'other'), undefined);
});

test('several profiles hang under their labels; a profile whose children loop back is read once per node', () => {
  const looping = profileOf(
    [
      [1, '(root)', '', [2]],
      [2, 'a', app, [3]],
      [3, 'b', app, [2, 3]],
    ],
    [
      [2, 1000],
      [3, 2000],
    ],
  );
  const tree = callTree([
    { label: 'main-thread', profile: looping },
    { label: 'worker-thread', profile: sample },
  ]);
  assert.deepEqual(
    tree.children.map((child) => [child.name, child.totalMs]),
    [
      ['worker-thread', 5.25],
      ['main-thread', 3],
    ],
  );
});

test('a file that is not a profile is refused with the field named', () => {
  const result = cpuProfileSchema.safeParse({
    nodes: [{ id: 1, callFrame: { functionName: 'x', url: '', lineNumber: 0 } }],
    samples: [1, 1],
    timeDeltas: [5],
  });
  assert.equal(result.success, false);
  assert.deepEqual(result.error!.issues[0]!.path, ['timeDeltas']);
});

test('a real profile of node --cpu-prof: the hot function is found, with its file and most of the time', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpu-profile-tree-'));
  const script = path.join(dir, 'hot.mjs');
  await writeFile(
    script,
    [
      '// the hot function is on line 2',
      'function burnHot(until) { let x = 0; while (performance.now() < until) x += Math.sqrt(x + 1); return x; }',
      'function idleA() { return 1; }',
      // 1.5 s: on a loaded machine Node's start-up took half of a 400 ms profile.
      'console.log(burnHot(performance.now() + 1500) > 0 && idleA());',
    ].join('\n'),
  );
  try {
    await promisify(execFile)(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, script]);
    const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'))!;
    const profile = cpuProfileSchema.parse(JSON.parse(await readFile(path.join(dir, file), 'utf8')));
    const tree = callTree([{ label: 'main', profile }]);
    const hot = find(tree, 'burnHot');
    assert.ok(hot, 'burnHot is in the tree');
    assert.equal(hot.location, `${path.basename(dir)}/hot.mjs:2`);
    assert.ok(hot.totalMs > 0.5 * tree.totalMs, `burnHot ${hot.totalMs} ms of ${tree.totalMs}`);
    assert.ok(hot.totalMs >= 200, `the profile covers the loop: ${hot.totalMs} ms`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
