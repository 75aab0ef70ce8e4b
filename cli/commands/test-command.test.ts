import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { selectTestFiles } from './test-command.ts';

const files = ['gateway/meter.test.ts', 'test/faults/worker-sigkill.test.ts', 'test/integration/worker-crash.test.ts', 'test/faultsy/x.test.ts'].map((f) => path.join(repoRoot, f));
const relative = (list: string[]) => list.map((f) => path.relative(repoRoot, f));

test('plain `trl test` skips test/faults/; --faults runs only it', () => {
  assert.deepEqual(relative(selectTestFiles(files, false)), ['gateway/meter.test.ts', 'test/integration/worker-crash.test.ts', 'test/faultsy/x.test.ts']);
  assert.deepEqual(relative(selectTestFiles(files, true)), ['test/faults/worker-sigkill.test.ts']);
});
