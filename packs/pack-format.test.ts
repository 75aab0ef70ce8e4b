import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPackFormat, packDisplayName, packKindOf } from './pack-format.ts';
import type { CanonicalPack } from './canonical-pack.ts';

const skill = '# careful\n\nRead before you write.\n';
const pack = (files: Record<string, string>): CanonicalPack => ({ schema_version: 1, files });
const codes = (files: Record<string, string>) => checkPackFormat(pack(files)).map((reason) => reason.code);

test('each entry decides one kind; SKILL.md beside it is all a pack needs', () => {
  assert.equal(packKindOf(pack({ 'SKILL.md': skill, 'policy.ts': 'x' })), 'typescript');
  assert.equal(packKindOf(pack({ 'SKILL.md': skill, 'policy.py': 'x', 'helpers.py': 'y' })), 'python');
  assert.equal(
    packKindOf(pack({ 'SKILL.md': skill, 'policy.json': '{"kind":"pin","model":"glm-5.3-flash"}' })),
    'data',
  );
  assert.deepEqual(codes({ 'SKILL.md': skill, 'policy.json': '{"kind":"pin","model":"glm-5.3-flash"}' }), []);
  assert.deepEqual(codes({ 'SKILL.md': skill, 'policy.py': 'print(1)', 'notes/extra.txt': 'x' }), []);
});

test('a missing SKILL.md, no entry or two entries are named', () => {
  assert.deepEqual(codes({ 'policy.ts': 'x' }), ['skill_missing']);
  assert.deepEqual(codes({ 'SKILL.md': skill, 'helper.py': 'x' }), ['entry_missing']);
  const both = checkPackFormat(pack({ 'SKILL.md': skill, 'policy.py': 'x', 'policy.ts': 'y' }));
  assert.deepEqual(
    both.map((r) => r.code),
    ['entry_ambiguous'],
  );
  assert.match(both[0]!.message, /policy\.py and policy\.ts/);
  assert.equal(packKindOf(pack({ 'SKILL.md': skill, 'policy.py': 'x', 'policy.ts': 'y' })), undefined);
});

test('file names: relative, no "..", no control characters, never absolute', () => {
  for (const name of [
    '/etc/passwd',
    '../up.py',
    'a/../../b.py',
    'line\nbreak.py',
    'back\\slash.py',
    'a//b.py',
    './x.py',
    '',
  ]) {
    const reasons = checkPackFormat(pack({ 'SKILL.md': skill, 'policy.py': 'x', [name]: 'y' }));
    assert.deepEqual(
      reasons.map((r) => r.code),
      ['file_path_invalid'],
      JSON.stringify(name),
    );
  }
  assert.deepEqual(codes({ 'SKILL.md': skill, 'policy.py': 'x', 'lib/deep/ok.py': 'y', '.hidden.txt': 'z' }), []);
});

test('32 KB of canonical JSON at most, counted in bytes', () => {
  assert.deepEqual(codes({ 'SKILL.md': skill, 'policy.py': 'x'.repeat(32 * 1024 - 100) }), []);
  const reasons = checkPackFormat(pack({ 'SKILL.md': skill, 'policy.py': 'é'.repeat(16 * 1024) }));
  assert.deepEqual(
    reasons.map((r) => r.code),
    ['pack_too_large'],
  );
  assert.match(reasons[0]!.message, /32 KB/);
});

test('a malformed policy.json is rejected naming the field and the rule', () => {
  const reasons = checkPackFormat(
    pack({
      'SKILL.md': skill,
      'policy.json': '{"kind":"escalate","cheap":"glm-5.3-flash","strong":"gpt-4o","signals":["stall"]}',
    }),
  );
  assert.deepEqual(
    reasons.map((r) => r.code),
    ['policy_json_invalid'],
  );
  assert.match(reasons[0]!.message, /policy\.json: field "strong"/);
  assert.match(checkPackFormat(pack({ 'SKILL.md': skill, 'policy.json': '{nope' }))[0]!.message, /not valid JSON/);
});

test("a pack's display name comes from SKILL.md's front matter or first heading", () => {
  assert.equal(packDisplayName(pack({ 'SKILL.md': '---\nname: quick-router\n---\n# Other\n' })), 'quick-router');
  assert.equal(packDisplayName(pack({ 'SKILL.md': skill })), 'careful');
  assert.equal(packDisplayName(pack({})), undefined);
});
