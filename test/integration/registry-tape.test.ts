// Verify-time installs served from a registry tape (activities/registry-tape.ts), on the real pipeline:
// a Terminal-Bench 2 shaped test.sh (apt-get, astral.sh's uv installer, uvx with pytest from PyPI) and
// one that runs `pip install`. The rehearsal reaches the package registries through the recording
// proxy (this machine's registries: PyPI and Debian); the verifier reaches only the replay proxy,
// so agent output that asks for anything new gets a 404, another host a refusal, and no name resolves.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EvaluationResult } from '../../contracts/results.ts';
import { repoRoot } from '../../common/data-layout.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { examplePackDir } from '../support/fixture-packs.ts';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'registry-tape');

describe('verify-time installs from a registry tape', () => {
  let harness: Harness;
  let dir: string;
  const results: Record<string, EvaluationResult> = {};

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trl-registry-tape-'));
    await cp(fixtures, dir, { recursive: true });
    harness = await startHarness();
    const pack = { kind: 'directory' as const, path: examplePackDir };
    // Oracle first: its prepare rehearses and records; the null run then finds the tapes.
    results.oracle = await harness.evaluate({
      submissionId: uniqueId('tape-oracle'),
      pack,
      agent: 'oracle',
      scenariosDir: dir,
    });
    results.null = await harness.evaluate({
      submissionId: uniqueId('tape-null'),
      pack,
      agent: 'null',
      scenariosDir: dir,
    });
  });
  after(async () => {
    await harness?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the oracle passes every test of both tasks; the tape is noted', () => {
    for (const name of ['uvx-tests', 'pip-tests']) {
      const scenario = results.oracle!.perScenario.find((s) => s.name === name);
      assert.equal(scenario?.status, 'completed', `${name}: ${scenario?.error ?? ''}`);
      assert.ok((scenario?.testsTotal ?? 0) > 0 && scenario?.testsPassed === scenario?.testsTotal, name);
      assert.match((scenario?.notes ?? []).join('\n'), /served from a registry tape/);
    }
    const uvx = results.oracle!.perScenario.find((s) => s.name === 'uvx-tests');
    assert.match((uvx?.notes ?? []).join('\n'), /uv 0\.9\.7 from PyPI/);
  });

  test('the null agent passes no test that needs its output', () => {
    for (const name of ['uvx-tests', 'pip-tests']) {
      const scenario = results.null!.perScenario.find((s) => s.name === name);
      assert.equal(scenario?.status, 'completed', name);
      assert.ok((scenario?.testsPassed ?? 0) < (scenario?.testsTotal ?? 0), name);
    }
  });

  test('the verifier reaches nothing but the recorded responses', async () => {
    const uvx = results.oracle!.perScenario.find((s) => s.name === 'uvx-tests');
    const ref = uvx?.artifacts.verifierLog;
    assert.ok(ref, 'a verifier log');
    const verifierLog = await readFile(ref.path, 'utf8');
    assert.match(verifierLog, /probe new url: 404/);
    assert.match(verifierLog, /probe other host: 403/);
    assert.match(verifierLog, /probe dns: none/);
    assert.match(verifierLog, /\[registry tape\] \d+ recorded responses served/);
    assert.match(
      verifierLog,
      /not recorded \(404\): GET https:\/\/pypi\.org\/simple\/trl-registry-tape-never-recorded\//,
    );
  });
});
