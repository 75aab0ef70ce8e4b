// One owner for settings: every TRL_* environment variable the source names is declared in
// common/settings/ (and so documented in docs/reference/settings.md), and outside the registry no
// source file reads one from process.env by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readImportGraph } from '../support/import-graph.ts';
import { repoRoot } from '../../common/data-layout.ts';
import { allSettings } from '../../common/settings/all-settings.ts';
import { documentedDefault, readSetting } from '../../common/settings/setting.ts';
import { workerSettings } from '../../common/settings/worker-settings.ts';

const graph = readImportGraph(repoRoot);
const sourceFiles = [...graph.files, 'policy/runtime/runner.mjs'];
/** Names that look like variables but are not read from the environment: heredoc delimiters, a pack-data fence. */
const notVariables = new Set(['TRL_SIM_EOF', 'TRL_PACK_DATA']);
/** Set by tests to prove a value does not leak into a sandbox; nothing reads them. */
const leakCanaries = new Set(['TRL_TEST_CANARY', 'TRL_TEST_SECRET', 'TRL_BATCH_LEAK']);

test('every TRL_* variable the source names is declared in common/settings/', () => {
  const undeclared = new Set<string>();
  for (const file of sourceFiles) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [name] of text.matchAll(/\bTRL_[A-Z0-9_]*[A-Z0-9]\b/g)) {
      if (notVariables.has(name) || leakCanaries.has(name) || /^TRL_SIM_EOF_\d+$/.test(name)) continue;
      // Prefixes in prose (`TRL_S3_*`, `TRL_UPSTREAM_*`) name a family, not a variable.
      if (text.includes(`${name}_*`)) continue;
      if (!(name in allSettings)) undeclared.add(`${name} (${file})`);
    }
  }
  assert.deepEqual([...undeclared], []);
});

test('outside common/settings/ no source file reads a TRL_* or AWS_* variable from process.env by hand', () => {
  const allowed = new Set([
    // Runs inside the policy sandbox, where the registry is not loaded; it deletes the variable at once.
    'policy/runtime/runner.mjs',
    // A plain-JavaScript preload of `trl test` that gives each test file its own data folder.
    'test/support/data-dir-per-file.mjs',
  ]);
  const isRead = (line: string) =>
    /process\.env\.(TRL|AWS)_[A-Z0-9_]+/.test(line) &&
    // Setting a default for this process or a child's environment is not a read.
    !/process\.env\.\w+ \?\?=/.test(line) &&
    !/process\.env\.\w+ = /.test(line) &&
    !/^\s*(TRL|AWS)_\w+: process\.env\.\w+ \?\?/.test(line) &&
    // Through the registry's own schema (common/log.ts, which must never throw).
    !/Settings\.\w+\.schema\.safeParse\(process\.env\./.test(line);
  const offending = sourceFiles.filter(
    (file) =>
      !allowed.has(file) &&
      !file.startsWith('common/settings/') &&
      readFileSync(path.join(repoRoot, file), 'utf8').split('\n').some(isRead),
  );
  assert.deepEqual(offending, []);
});

test('every setting has a meaning and a default the page can show', () => {
  for (const [name, setting] of Object.entries(allSettings)) {
    assert.ok(setting.description.length > 10, `${name} has a description`);
    assert.ok(documentedDefault(setting).length > 0, `${name} has a default`);
  }
});

test('a bad value names the variable and what it expects; blank counts as unset', () => {
  assert.throws(
    () => readSetting(workerSettings, 'TRL_MAX_CONCURRENT_ACTIVITIES', { TRL_MAX_CONCURRENT_ACTIVITIES: 'many' }),
    /^ConfigError: TRL_MAX_CONCURRENT_ACTIVITIES: TRL_MAX_CONCURRENT_ACTIVITIES must be a whole number of at least 1 \(got "many"\)$/,
  );
  assert.equal(
    readSetting(workerSettings, 'TRL_MAX_CONCURRENT_ACTIVITIES', { TRL_MAX_CONCURRENT_ACTIVITIES: ' ' }),
    undefined,
  );
  assert.equal(readSetting(workerSettings, 'TRL_MAX_CONCURRENT_ACTIVITIES', {}), undefined);
  assert.equal(readSetting(workerSettings, 'TRL_SCENARIO_CPUS', { TRL_SCENARIO_CPUS: ' ' }), 0.15);
});
