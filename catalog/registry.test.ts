import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../common/data-layout.ts';
import { readRegistry } from './registry.ts';
import { listScenarioFolders, listAllScenarioFolders, selectScenarios } from './list-scenarios.ts';

async function scenariosWith(registry: unknown | undefined, folders: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-registry-'));
  for (const name of folders)
    await cp(path.join(repoRoot, 'scenarios', 'csv-sales-report'), path.join(dir, name), { recursive: true });
  if (registry !== undefined) await writeFile(path.join(dir, 'registry.json'), JSON.stringify(registry));
  return dir;
}

test('the project registry names a spec and an active set that all exist', async () => {
  const registry = await readRegistry(path.join(repoRoot, 'scenarios'));
  assert.ok(registry && registry.spec >= 1);
  assert.deepEqual(
    (await listScenarioFolders()).map((s) => s.name),
    [...registry.active].sort(),
  );
});

test('folders outside the active set are inactive but can be named', async () => {
  const dir = await scenariosWith({ spec: 7, active: ['alpha'] }, ['alpha', 'retired']);
  assert.deepEqual(
    (await listScenarioFolders(dir)).map((s) => s.name),
    ['alpha'],
  );
  assert.deepEqual(
    (await listAllScenarioFolders(dir)).map((s) => s.name),
    ['alpha', 'retired'],
  );
  assert.deepEqual(
    (await selectScenarios(['retired'], dir)).map((s) => s.name),
    ['retired'],
  );
});

test('without a registry every folder is active; a bad registry is a clear error', async () => {
  assert.equal((await listScenarioFolders(await scenariosWith(undefined, ['a', 'b']))).length, 2);
  await assert.rejects(
    listScenarioFolders(await scenariosWith({ spec: 1, active: ['ghost'] }, ['a'])),
    /ghost: listed in registry.json but has no folder/,
  );
  await assert.rejects(listScenarioFolders(await scenariosWith({ spec: 0, active: ['a'] }, ['a'])), /field "spec"/);
  const dir = await scenariosWith(undefined, ['a']);
  await mkdir(path.join(dir, 'x'));
  await writeFile(path.join(dir, 'registry.json'), '{oops');
  await assert.rejects(readRegistry(dir), /not JSON/);
});
