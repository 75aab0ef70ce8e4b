// The layout's rules, checked from the source: rooms without import cycles, workflow files that
// import only contracts/ and scoring/ values, test helpers kept out of the source rooms, the judge
// protocol behind its front door, and one module that builds paths under the data directory, each
// of them catalogued for docs/reference/data-layout.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cycles, readImportGraph, roomEdges, roomOf } from '../support/import-graph.ts';
import { repoRoot } from '../../common/data-layout.ts';

const graph = readImportGraph(repoRoot);
const isTestHelper = (file: string) => file.startsWith('test/') || file.split('/').includes('testing');

test('no folder-level and no file-level import cycle', () => {
  const rooms = [...new Set(graph.files.map(roomOf))];
  assert.deepEqual(cycles(rooms, roomEdges(graph)), []);
  assert.deepEqual(
    cycles(
      graph.files,
      graph.edges.map((edge) => [edge.from, edge.to]),
    ),
    [],
  );
});

test('workflow files import values only from contracts/ and scoring/', () => {
  const offending = graph.edges.filter(
    (edge) =>
      edge.from.startsWith('workflows/') &&
      !edge.typeOnly &&
      !['workflows', 'contracts', 'scoring'].includes(roomOf(edge.to)),
  );
  assert.deepEqual(
    offending.map((edge) => `${edge.from} → ${edge.to}`),
    [],
  );
});

test('source rooms never import test helpers (test/, testing/ folders)', () => {
  const offending = graph.edges.filter(
    (edge) => !isTestHelper(edge.from) && isTestHelper(edge.to) && !edge.from.startsWith('bench/'),
  );
  assert.deepEqual(
    offending.map((edge) => `${edge.from} → ${edge.to}`),
    [],
  );
});

test("the judge's wire protocol is reached only through screening/judge-protocol.ts", () => {
  const inner = new Set([
    'screening/judge-prompt.ts',
    'screening/judge-delimiters.ts',
    'screening/judge-answer-schema.ts',
  ]);
  const offending = graph.edges.filter((edge) => inner.has(edge.to) && !edge.from.startsWith('screening/judge-'));
  assert.deepEqual(
    offending.map((edge) => `${edge.from} → ${edge.to}`),
    [],
  );
});

test('only common/data-layout.ts builds paths under the data and cache directories', () => {
  const offending = graph.files
    .filter((file) => file !== 'common/data-layout.ts' && !isTestHelper(file))
    .filter((file) => {
      const text = readFileSync(path.join(repoRoot, file), 'utf8');
      return (
        /path\.(join|resolve)\(\s*(dataDir|cacheDir|artifactsRoot|packStoreDir)\b/.test(text) ||
        /path\.(join|resolve)\([^)]*['"]\.(data|cache)['"]/.test(text)
      );
    });
  assert.deepEqual(offending, []);
});

test('every path common/data-layout.ts exports is in its catalog, the source of docs/reference/data-layout.md', async () => {
  const layout = await import('../../common/data-layout.ts');
  const { dataLayoutCatalog } = await import('../../common/data-layout-catalog.ts');
  const { shownPath } = await import('../../cli/reference/data-layout-page.ts');
  // The roots themselves, and a table of file names (each used under a run's folder).
  const notPaths = new Set(['repoRoot', 'dataDir', 'cacheDir', 'artifactNames']);
  const catalogued = new Set(dataLayoutCatalog.map((entry) => entry.name));
  const exported = Object.entries(layout)
    .filter(([name, value]) => !notPaths.has(name) && (typeof value === 'string' || typeof value === 'function'))
    .map(([name]) => name);
  assert.deepEqual(
    exported.filter((name) => !catalogued.has(name as never)),
    [],
    'each exported path has a row in common/data-layout-catalog.ts',
  );
  assert.equal(catalogued.size, dataLayoutCatalog.length, 'a path is catalogued once');
  // Every row builds a path under the checkout, the data folder or the cache folder, with its example arguments.
  for (const entry of dataLayoutCatalog) assert.ok(shownPath(entry).length > 0);
  assert.equal(
    shownPath({ name: 'runDir', args: ['evaluate-local-1'], holds: '' }),
    '.data/artifacts/evaluate-local-1/',
  );
});

test('git tracks no symbolic link: checked out over an ignored folder (.cache, .data), a link replaces it and git deletes what was there', () => {
  const entries = execFileSync('git', ['ls-files', '-s'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const links = entries
    .split('\n')
    .filter((line) => line.startsWith('120000 '))
    .map((line) => line.split('\t')[1]);
  assert.deepEqual(links, []);
});
