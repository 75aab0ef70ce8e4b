import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultScanThresholds, parseScanThresholds, ruleFor, scanThresholdsSchema } from './scan-thresholds.ts';

test('the defaults are valid and no single coincidental finding rejects', () => {
  assert.deepEqual(scanThresholdsSchema.parse(defaultScanThresholds), defaultScanThresholds);
  for (const [kind, rule] of Object.entries(defaultScanThresholds.kinds)) {
    if (!rule.hardReject) assert.ok(rule.weight < defaultScanThresholds.rejectScore, `${kind} weighs ${rule.weight}`);
  }
  // Text aimed at the judge is for the judge to weigh: never a static rejection on its own.
  assert.ok(defaultScanThresholds.kinds['judge-injection']!.cap < defaultScanThresholds.rejectScore);
  assert.equal(defaultScanThresholds.kinds['test-name']!.hardReject, true);
});

test('operator overrides merge onto the defaults kind by kind; bad values are refused', () => {
  const merged = parseScanThresholds({ rejectScore: 50, kinds: { url: { weight: 0, cap: 0, hardReject: false } } });
  assert.equal(merged.rejectScore, 50);
  assert.equal(ruleFor(merged, 'url').weight, 0);
  assert.deepEqual(ruleFor(merged, 'test-name'), defaultScanThresholds.kinds['test-name']);
  assert.deepEqual(ruleFor(merged, 'no-such-kind'), { weight: 0, cap: 0, hardReject: false });
  assert.throws(() => parseScanThresholds({ rejectScore: -1 }));
  assert.throws(() => parseScanThresholds({ kinds: { url: { weight: 'heavy' } } }));
});
