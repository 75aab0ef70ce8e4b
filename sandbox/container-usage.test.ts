import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cpuStatUsageNs, readContainerCgroup, watchContainerCores } from './container-usage.ts';

test("a container's peak memory and CPU time from cgroup v1 and v2 files, wherever Docker's driver put them", async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'trl-cgroup-'));
  await mkdir(path.join(root, 'memory/docker/aaa'), { recursive: true });
  await mkdir(path.join(root, 'cpuacct/docker/aaa'), { recursive: true });
  await writeFile(path.join(root, 'memory/docker/aaa/memory.max_usage_in_bytes'), '123456\n');
  await writeFile(path.join(root, 'cpuacct/docker/aaa/cpuacct.usage'), '987654321\n');
  assert.deepEqual(await readContainerCgroup('aaa', root), { memoryPeakBytes: 123456, cpuNs: 987654321 });
  const v2 = path.join(root, 'system.slice/docker-bbb.scope');
  await mkdir(v2, { recursive: true });
  await writeFile(path.join(v2, 'memory.current'), '2048\n');
  await writeFile(path.join(v2, 'cpu.stat'), 'usage_usec 1500\nuser_usec 1000\n');
  assert.deepEqual(await readContainerCgroup('bbb', root), { memoryPeakBytes: 2048, cpuNs: 1_500_000 });
  await writeFile(path.join(v2, 'memory.peak'), '4096\n');
  assert.equal((await readContainerCgroup('bbb', root))?.memoryPeakBytes, 4096, 'the peak where the kernel keeps one');
  assert.equal(await readContainerCgroup('ccc', root), undefined);
});

test('cpu.stat usage in nanoseconds', () => {
  assert.equal(cpuStatUsageNs('usage_usec 42\nuser_usec 40\n'), 42_000);
  assert.equal(cpuStatUsageNs('user_usec 40\n'), undefined);
});

test('the cores a container used between two readings: CPU time over wall time; none without a reading', async () => {
  let cpuNs = 0;
  let atMs = 0;
  let readable = true;
  const reports: number[] = [];
  const watch = watchContainerCores(
    'c1',
    (cores) => reports.push(cores),
    5,
    async () => (readable ? { memoryPeakBytes: 0, cpuNs } : undefined),
    () => atMs,
  );
  const tick = async (cpuMs: number, wallMs: number) => {
    cpuNs += cpuMs * 1e6;
    atMs += wallMs;
    const before = reports.length;
    for (let i = 0; i < 200 && reports.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  await tick(0, 0); // the first reading only sets the baseline
  await tick(500, 1000);
  await tick(2000, 1000);
  readable = false;
  await new Promise((resolve) => setTimeout(resolve, 30));
  watch.stop();
  assert.deepEqual(reports.slice(0, 2), [0.5, 2]);
  assert.equal(reports.length, 2, 'no report while the cgroup cannot be read');
});
