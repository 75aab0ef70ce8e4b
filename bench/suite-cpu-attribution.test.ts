import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributeProcesses, fileCosts, testFileOf } from './suite-cpu-attribution.ts';

const node = (file: string) => ['/usr/bin/node', '--import', 'tsx', file];

test('a test file is named by its command line; the runner is not one', () => {
  assert.equal(testFileOf(node('/r/test/integration/a.test.ts')), '/r/test/integration/a.test.ts');
  assert.equal(testFileOf([...node('/r/cli/commands/test-runner.ts'), '3', 'test/x.test.ts']), undefined);
  assert.equal(testFileOf(node('/r/simfleet/main.ts')), undefined);
});

test('processes belong to the test file above them; others to none', () => {
  const owners = attributeProcesses([
    { pid: 1, ppid: 0, cpuSeconds: 0, args: ['init'] },
    { pid: 10, ppid: 1, cpuSeconds: 1, args: [...node('/r/cli/commands/test-runner.ts'), '3'] },
    { pid: 11, ppid: 10, cpuSeconds: 2, args: node('/r/test/integration/a.test.ts') },
    { pid: 12, ppid: 11, cpuSeconds: 3, args: node('/r/simfleet/main.ts') },
    { pid: 13, ppid: 12, cpuSeconds: 1, args: ['sh'] },
    { pid: 20, ppid: 1, cpuSeconds: 5, args: ['dockerd'] },
  ]);
  assert.deepEqual([...owners.entries()].sort(), [
    [11, '/r/test/integration/a.test.ts'],
    [12, '/r/test/integration/a.test.ts'],
    [13, '/r/test/integration/a.test.ts'],
  ]);
});

test('costs sum processes and containers per file, largest first', () => {
  const costs = fileCosts({
    processes: new Map([
      [11, { file: 'a', cpuSeconds: 2 }],
      [12, { file: 'a', cpuSeconds: 3 }],
      [30, { file: 'b', cpuSeconds: 1 }],
    ]),
    seen: new Map([['a', { firstMs: 1000, lastMs: 11_000 }]]),
    containers: new Map([
      ['c1', { file: 'b', cpuSeconds: 9 }],
      ['c2', { cpuSeconds: 4 }],
    ]),
  });
  assert.deepEqual(
    costs.map((c) => [c.file, c.wallSeconds, c.processCpuSeconds, c.containerCpuSeconds, c.containers]),
    [
      ['b', 0, 1, 9, 1],
      ['a', 10, 5, 0, 0],
      ['(not this run)', 0, 0, 4, 1],
    ],
  );
});
