import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createClaimPriority, pairedPriority } from './claim-priority.ts';

async function scenario(toml: string): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-claim-priority-')), 'task');
  await mkdir(dir);
  await writeFile(path.join(dir, 'task.toml'), toml);
  return dir;
}

test("a scenario's priority is the seconds its task grants the agent, Harbor's default when it says none", async () => {
  const priorityOf = createClaimPriority();
  assert.equal(await priorityOf(await scenario('[agent]\ntimeout_sec = 1800\n')), 1800);
  assert.equal(await priorityOf(await scenario('[metadata]\ncategory = "x"\n')), 600);
  assert.equal(await priorityOf(await scenario('[agent]\ntimeout_sec = 999999\n')), 7200, 'capped as the run is');
});

test('a folder that cannot be read, or no folder (an old history), waits as the shortest', async () => {
  const priorityOf = createClaimPriority();
  assert.equal(await priorityOf(undefined), 0);
  assert.equal(await priorityOf(path.join(os.tmpdir(), 'trl-no-such-scenario')), 0);
  assert.equal(await priorityOf(await scenario('not = [toml')), 0);
  assert.equal(await priorityOf(await scenario(`[agent]\ntimeout_sec = 900\n# ${'x'.repeat(300 * 1024)}\n`)), 0);
});

test("a paired evaluation's scenarios go by the seat's release order, before any unpaired one", () => {
  assert.ok(pairedPriority(0) > pairedPriority(1) && pairedPriority(1) > pairedPriority(25));
  assert.ok(pairedPriority(99_999_999) > 7200, 'the last rank still goes before the longest unpaired scenario');
  assert.equal(pairedPriority(-3), pairedPriority(0));
});
