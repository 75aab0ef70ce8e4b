// The layout's rules, checked from the source: rooms without import cycles, workflow files that
// import only contracts/ and scoring/ values, test helpers kept out of the source rooms, the judge
// protocol behind its front door, and one module that builds paths under the data directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

test('the on-disk paths README documents are the ones common/data-layout.ts builds', async () => {
  const layout = await import('../../common/data-layout.ts');
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## On disk'));
  const rows = [
    ...section.slice(0, section.indexOf('\n## ', 4)).matchAll(/^\| `([^`]+)` \| `([A-Za-z]+)(\(([^)]*)\))?` \|/gm),
  ];
  assert.ok(rows.length >= 10, 'README has an "On disk" table of `path` | `builder` rows');
  const dataRoot = (p: string) =>
    p.replace(/^\.data\//, `${layout.dataDir}/`).replace(/^\.cache\//, `${layout.cacheDir}/`);
  for (const [, documented, name, , args] of rows) {
    const built = (layout as Record<string, unknown>)[name!];
    assert.ok(built !== undefined, `README names ${name}, which common/data-layout.ts does not export`);
    const value =
      typeof built === 'function'
        ? (built as (...a: unknown[]) => string)(...(args ? args.split(',').map((a) => JSON.parse(a.trim())) : []))
        : String(built);
    assert.equal(value, dataRoot(documented!).replace(/\/$/, ''), `README's ${documented} is built as ${value}`);
  }
  const exported = Object.entries(layout)
    .filter(([, value]) => typeof value === 'string' && (value as string).startsWith(layout.dataDir + '/'))
    .map(([name]) => name);
  const documentedNames = new Set(rows.map((row) => row[2]));
  assert.deepEqual(
    exported.filter((name) => !documentedNames.has(name)),
    [],
    'every data path is in README',
  );
});
