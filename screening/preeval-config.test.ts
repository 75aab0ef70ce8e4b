import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultPreEvalFile, parsePreEvalConfig } from './preeval-config.ts';

test('the shipped pre-evaluation file keeps the probe on', () => {
  assert.equal(parsePreEvalConfig(readFileSync(defaultPreEvalFile, 'utf8')).probe.enabled, true);
});

test('the probe is on unless the file turns it off; a non-boolean is refused', () => {
  const base = { version: 1, judge: { model: 'glm-5.2' } };
  assert.equal(parsePreEvalConfig(JSON.stringify(base)).probe.enabled, true);
  assert.equal(parsePreEvalConfig(JSON.stringify({ ...base, probe: { enabled: false } })).probe.enabled, false);
  assert.throws(() => parsePreEvalConfig(JSON.stringify({ ...base, probe: { enabled: 'no' } })), /probe\.enabled/);
});
