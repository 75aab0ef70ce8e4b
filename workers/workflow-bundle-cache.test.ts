import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundledModules, cachedWorkflowBundle } from './workflow-bundle-cache.ts';

/** A bundle shaped as webpack's development output names its modules, over real files. */
function fakeBundle(modules: string[], tag: string) {
  return {
    code: [
      '/******/ (() => { // webpackBootstrap',
      ...modules.flatMap((file) => [`/***/ "${file}"`, `/*!** ${file} **!*/`, `/***/ ((module) => { /* ${tag} */ }),`]),
      '/***/ "?2065"',
      '/***/ (() => {}),',
    ].join('\n'),
    sourceMap: 'deprecated: this is no longer in use',
  };
}

async function setUp() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-bundle-cache-'));
  const a = path.join(dir, 'a.ts');
  const b = path.join(dir, 'b.ts');
  await writeFile(a, 'export const a = 1;\n');
  await writeFile(b, 'export const b = 2;\n');
  const cacheDir = path.join(dir, 'cache');
  let builds = 0;
  const build = (modules = [a, b]) => {
    return async () => fakeBundle(modules, `build ${++builds}`);
  };
  return { dir, a, b, cacheDir, build, builds: () => builds, done: () => rm(dir, { recursive: true, force: true }) };
}

test('the modules a webpack bundle names, without its placeholders for ignored ones', () => {
  assert.deepEqual(bundledModules(fakeBundle(['./x.ts', './node_modules/y/lib/z.js'], 't').code), [
    './x.ts',
    './node_modules/y/lib/z.js',
  ]);
});

test('an unchanged bundle is reused; a changed module, another entry or a broken entry file bundles afresh', async () => {
  const s = await setUp();
  try {
    const first = await cachedWorkflowBundle([s.a], s.build(), s.cacheDir);
    const again = await cachedWorkflowBundle([s.a], s.build(), s.cacheDir);
    assert.equal(s.builds(), 1);
    assert.equal(again.code, first.code);

    await writeFile(s.b, 'export const b = 3;\n');
    const changed = await cachedWorkflowBundle([s.a], s.build(), s.cacheDir);
    assert.equal(s.builds(), 2, 'a module changed: bundled again');
    assert.match(changed.code, /build 2/);

    await cachedWorkflowBundle([s.b], s.build(), s.cacheDir);
    assert.equal(s.builds(), 3, 'another entry: its own bundle');

    for (const name of await readdir(s.cacheDir)) await writeFile(path.join(s.cacheDir, name), '{"code": 1');
    await cachedWorkflowBundle([s.a], s.build(), s.cacheDir);
    assert.equal(s.builds(), 4, 'an unreadable entry: bundled again');
  } finally {
    await s.done();
  }
});

test('a bundle naming a module that is not a file is never kept', async () => {
  const s = await setUp();
  try {
    const gone = path.join(s.dir, 'gone.ts');
    await cachedWorkflowBundle([s.a], s.build([s.a, gone]), s.cacheDir);
    await cachedWorkflowBundle([s.a], s.build([s.a, gone]), s.cacheDir);
    assert.equal(s.builds(), 2);
  } finally {
    await s.done();
  }
});

test('at most four entries are kept, the last used', async () => {
  const s = await setUp();
  const entry = (i: number) => [path.join(s.dir, `entry-${i}.ts`)];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  try {
    for (let i = 0; i < 4; i++) {
      await cachedWorkflowBundle(entry(i), s.build(), s.cacheDir);
      await pause();
    }
    await cachedWorkflowBundle(entry(0), s.build(), s.cacheDir);
    assert.equal(s.builds(), 4, 'entry 0 reused');
    await pause();
    await cachedWorkflowBundle(entry(4), s.build(), s.cacheDir);
    assert.equal((await readdir(s.cacheDir)).filter((name) => name.endsWith('.json')).length, 4);
    await cachedWorkflowBundle(entry(0), s.build(), s.cacheDir);
    assert.equal(s.builds(), 5, 'entry 0, used last, is still there');
    await cachedWorkflowBundle(entry(1), s.build(), s.cacheDir);
    assert.equal(s.builds(), 6, 'entry 1, the least recently used, went');
  } finally {
    await s.done();
  }
});
