import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPackStructure } from './manifest.ts';

const manifest = { name: 'cost-cascade', version: '1.2.0', entry: 'policy.ts', sdk: 1 };
const pack = (over: Partial<{ manifest: Record<string, unknown>; files: Record<string, string> }> = {}) => ({
  schema: 1 as const,
  manifest: over.manifest ?? manifest,
  files: over.files ?? { 'policy.ts': 'export default {}' },
});

test('a well-formed pack has no problems', () => {
  assert.deepEqual(checkPackStructure(pack()), []);
});

test('each bad manifest field is named with how to fix it', () => {
  const reasons = checkPackStructure(pack({ manifest: { name: 'Bad Name', version: 'v1', entry: 'policy.py', sdk: 2, extra: true } }));
  const text = reasons.map((r) => r.message).join('\n');
  for (const field of ['name', 'version', 'entry', 'sdk']) assert.match(text, new RegExp(`field "${field}"`));
  assert.match(text, /Unrecognized key|extra/);
  assert.ok(reasons.every((r) => r.code === 'manifest_invalid'));
});

test('an entry that is not in the pack is rejected', () => {
  const reasons = checkPackStructure(pack({ files: { 'other.ts': '' } }));
  assert.deepEqual(reasons.map((r) => r.code), ['entry_missing']);
});

test('file count, size, type and path limits are enforced', () => {
  const many: Record<string, string> = { 'policy.ts': '' };
  for (let i = 0; i < 70; i++) many[`f${i}.ts`] = '';
  assert.ok(checkPackStructure(pack({ files: many })).some((r) => r.code === 'too_many_files'));
  assert.ok(checkPackStructure(pack({ files: { 'policy.ts': 'x'.repeat(300 * 1024) } })).some((r) => r.code === 'file_too_large'));
  assert.ok(checkPackStructure(pack({ files: { 'policy.ts': '', 'run.sh': '' } })).some((r) => r.code === 'file_type_not_allowed'));
  assert.ok(checkPackStructure(pack({ files: { 'policy.ts': '', '../escape.ts': '' } })).some((r) => r.code === 'file_path_invalid'));
});
