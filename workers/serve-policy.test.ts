import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instancesAllowed } from './serve-policy.ts';
import { defaultServeSettings } from './serve-settings.ts';

test('the memory bound lowers the instance count by each sandbox kind, never below one', () => {
  assert.equal(instancesAllowed(defaultServeSettings, 'typescript'), defaultServeSettings.maxInstances);
  assert.equal(instancesAllowed({ ...defaultServeSettings, maxInstances: 8, memoryMb: 2048 }, 'typescript'), 4);
  assert.equal(instancesAllowed({ ...defaultServeSettings, maxInstances: 8, memoryMb: 2048 }, 'python'), 2);
  assert.equal(instancesAllowed({ ...defaultServeSettings, maxInstances: 2, memoryMb: 8192 }, 'data'), 2);
  assert.throws(
    () => instancesAllowed({ ...defaultServeSettings, memoryMb: 600 }, 'python'),
    /less than one python policy instance needs \(1024 MB\)/,
  );
});
