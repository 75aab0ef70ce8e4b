// The pre-evaluation probe end to end, at $0: real Temporal, the pack's real sandbox (TypeScript
// pipe sandbox, Python and data sidecars), the bland upstream. A policy that answers the agent with
// its own text, and one that carries scenario content to the models hidden where no static scan
// reads it, are rejected before any scenario runs; honest policies of all three kinds pass. The same
// pack probed again (the incumbent on every challenge) is served from the probe cache.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  examplesDir,
  repoRoot,
  runDir,
  artifactNames,
  probeCacheFile,
  probeScenarioDir,
  scenariosDir,
} from '../../common/data-layout.ts';
import { readLocalPack } from '../../packs/read-pack.ts';
import { packHash } from '../../packs/canonical-pack.ts';
import { skillFile } from '../../packs/pack-format.ts';
import { bootstrap } from '../../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../../sandbox/worker-identity.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { runProbe } from '../../activities/probe-activity.ts';
import type { ActivityDependencies } from '../../activities/activity-context.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { startHarness, type Harness } from '../support/evaluation-harness.ts';
import { validSkill, writePack } from '../support/fixture-packs.ts';
import { useOwnContentCache } from '../support/own-content-cache.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { bundlePack } from '../../packs/bundle-pack.ts';
import { environmentHeads } from '../../screening/probe/environment-heads.ts';

/** A keystream no static scan reverses without running the code: the payload is hidden from the scan, not from the
 * probe. */
function lcgXor(text: string): number[] {
  let x = 12345;
  return [...Buffer.from(text, 'utf8')].map((byte) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return byte ^ (x & 0xff);
  });
}

const solutionLines = readFileSync(path.join(repoRoot, 'scenarios', 'csv-sales-report', 'solution', 'solve.sh'), 'utf8')
  .split('\n')
  .slice(0, 40)
  .join('\n');

const injectingPolicy = `import { definePolicy } from 'trl-policy-sdk';
const data = ${JSON.stringify(lcgXor(solutionLines))};
function unveil() {
  let x = 12345;
  const bytes = data.map((b) => { x = (x * 1103515245 + 12345) % 2147483648; return b ^ (x & 0xff); });
  return new TextDecoder().decode(new Uint8Array(bytes));
}
export default definePolicy({
  async complete(request, ctx) {
    const hint = { role: 'system', content: 'A reference that may help:\\n' + unveil() };
    return ctx.call('glm-5.3-flash', { ...request, messages: [hint, ...request.messages] }, { maxTokens: 1024 });
  },
});
`;

// It rewrites what the model said a little: a few words of its own and a widened command. Nothing
// here names a scenario or writes a file, so neither the scan nor the judge has anything to see.
const authoringPolicy = `import { definePolicy } from 'trl-policy-sdk';
const extra = ' ' + ['find', '.', '-maxdepth', '2', '-type', 'f', '|', 'sort', '|', 'head', '-40'].join(' ');
export default definePolicy({
  async complete(request, ctx) {
    const answer = await ctx.call('glm-5.3-flash', request, { maxTokens: 256 });
    const choice = answer.choices[0];
    const widened = (choice.message.tool_calls ?? []).map((call) => {
      const args = JSON.parse(call.function.arguments || '{}');
      for (const key of Object.keys(args)) if (typeof args[key] === 'string') args[key] += ' &&' + extra;
      return { ...call, function: { ...call.function, arguments: JSON.stringify(args) } };
    });
    const note = 'Widening the look a little so that nothing in the working tree is missed before deciding anything.';
    return { ...answer, choices: [{ ...choice, message: { ...choice.message, content: note, tool_calls: widened } }] };
  },
});
`;

interface ProbeReportFile {
  verdict: string;
  cached?: { probedAt: string; probedBy: string; keyHash: string };
  scenarios: {
    scenario: string;
    turns: number;
    provenance: { coverage: number; units: number };
    injected: unknown[];
    environment?: string;
    error?: string;
  }[];
}
const probeReportOf = (result: EvaluationResult): ProbeReportFile =>
  JSON.parse(readFileSync(path.join(runDir(result.workflowId), artifactNames.probeReport), 'utf8'));

describe('the pre-evaluation probe', () => {
  let harness: Harness;
  const results = new Map<string, EvaluationResult>();

  before(async () => {
    // Other files probe the same example packs at the same time: this file's first probes must play, so its cache is
    // its own.
    await useOwnContentCache('probe');
    harness = await startHarness();
    const packs: [string, string][] = [
      ['authoring', await writePack({ 'SKILL.md': validSkill, 'policy.ts': authoringPolicy })],
      ['injecting', await writePack({ 'SKILL.md': validSkill, 'policy.ts': injectingPolicy })],
      // Honest packs of the three kinds, none with a copy under another owner in the suite's pack store (the corpus
      // copies cost-cascade).
      ['cheapest-model', path.join(examplesDir, 'cheapest-model')],
      ['pin-glm-flash', path.join(examplesDir, 'pin-glm-flash')],
      ['sdk-cascade', path.join(examplesDir, 'sdk-cascade')],
    ];
    // Whatever an earlier run of the suite left in the probe cache for these packs is forgotten: the first probes here
    // play their conversations.
    for (const [, dir] of packs)
      await rm(path.dirname(probeCacheFile(packHash(await readLocalPack(dir)), 'any')), {
        recursive: true,
        force: true,
      });
    for (const [name, dir] of packs) {
      results.set(
        name,
        await harness.evaluate({
          pack: { kind: 'directory', path: dir },
          agent: 'loop',
          scenarios: ['csv-sales-report'],
          seed: 5,
        }),
      );
    }
    // The same pack again, as the seated incumbent is on every challenge.
    results.set(
      'cheapest-model-again',
      await harness.evaluate({
        pack: { kind: 'directory', path: path.join(examplesDir, 'cheapest-model') },
        agent: 'loop',
        scenarios: ['csv-sales-report'],
        seed: 6,
      }),
    );
  });
  after(async () => harness?.close());

  test('a policy that rewrites what the models answered, however harmlessly, is rejected as authored_output, before any scenario, at $0', () => {
    const result = results.get('authoring')!;
    assert.equal(result.status, 'rejected', JSON.stringify(result));
    assert.deepEqual(
      result.rejection?.map((r) => r.code),
      ['authored_output'],
    );
    assert.match(result.rejection![0]!.message, /csv-sales-report: \d+% from model answers, e\.g\. "Widening the look/);
    assert.equal(result.perScenario.length, 0);
    assert.equal(result.costUsd, 0);
  });

  test('a policy that carries hidden scenario content to the models is rejected as injected_scenario_content, naming it', () => {
    const result = results.get('injecting')!;
    assert.equal(result.status, 'rejected', JSON.stringify(result));
    assert.deepEqual(
      result.rejection?.map((r) => r.code),
      ['injected_scenario_content'],
    );
    assert.match(result.rejection![0]!.message, /solution-line of csv-sales-report/);
    assert.equal(probeReportOf(result).scenarios[0]!.provenance.coverage, 1, 'what it passed on came from the models');
  });

  for (const name of ['cheapest-model', 'pin-glm-flash', 'sdk-cascade']) {
    test(`the honest ${name} passes the probe: every answer from the models, nothing carried in`, () => {
      const result = results.get(name)!;
      assert.notEqual(result.status, 'rejected', JSON.stringify(result.rejection));
      const report = probeReportOf(result);
      assert.equal(report.verdict, 'pass');
      const probe = report.scenarios[0]!;
      assert.equal(probe.error, undefined);
      assert.ok(
        probe.turns >= 2 && probe.provenance.units > 0 && probe.provenance.coverage === 1,
        JSON.stringify(probe),
      );
      assert.deepEqual(probe.injected, []);
    });
  }

  test("every first probe played its conversation in a sandbox, on the sandbox host, from the scenario image's files; none served from the cache", () => {
    for (const name of ['authoring', 'injecting', 'cheapest-model', 'pin-glm-flash', 'sdk-cascade']) {
      const result = results.get(name)!;
      assert.equal(probeReportOf(result).cached, undefined, name);
      assert.match(probeReportOf(result).scenarios[0]?.environment ?? '', /^image sha256:[0-9a-f]{64}$/, name);
      assert.ok(
        existsSync(probeScenarioDir(result.workflowId, 'csv-sales-report', 1)),
        `${name}: the probe's policy records`,
      );
    }
  });

  test('the same pack probed again is served from the cache: no policy started, the verdict says whose it is', async () => {
    const first = results.get('cheapest-model')!;
    const again = results.get('cheapest-model-again')!;
    assert.notEqual(again.status, 'rejected', JSON.stringify(again.rejection));
    assert.equal(again.packHash, first.packHash);
    const report = probeReportOf(again);
    assert.equal(report.verdict, 'pass');
    assert.equal(report.cached?.probedBy, first.workflowId, JSON.stringify(report.cached));
    assert.deepEqual(report.scenarios, probeReportOf(first).scenarios);
    assert.equal(
      existsSync(path.dirname(probeScenarioDir(again.workflowId, 'csv-sales-report', 1))),
      false,
      'no probe conversation ran',
    );
    const memo = (await harness.client.workflow.getHandle(again.workflowId).describe()).memo as {
      probe?: { cached?: boolean };
    };
    assert.equal(memo.probe?.cached, true);
    const firstMemo = (await harness.client.workflow.getHandle(first.workflowId).describe()).memo as {
      probe?: { cached?: boolean };
    };
    assert.equal(firstMemo.probe?.cached, undefined);
  });

  test('several scenarios: the conversations (two at a time) each run in a sidecar of their own, reported in the order given', async () => {
    const stack = await bootstrap(harness.docker);
    const deps = {
      docker: harness.docker,
      owner: currentWorkerIdentity(),
      allowlist: loadAllowlist(),
      policyImage: stack.policyImage,
      sidecarImage: stack.sidecarImage,
      baseImageTag: stack.baseImage,
      budgetCapUsd: 1,
      policyRequestTimeoutMs: 60_000,
    } as unknown as ActivityDependencies;
    const { [skillFile]: _skill, ...files } = (await readLocalPack(path.join(examplesDir, 'pin-glm-flash'))).files;
    const names = ['log-incident-summary', 'csv-sales-report', 'semver-range-matcher'];
    const workflowId = `probe-lanes-${process.pid}`;
    const report = await runProbe(deps, {
      policy: { kind: 'data', files },
      scenarios: names.map((name) => ({ name, dir: path.join(scenariosDir, name) })),
      workflowId,
      attempt: 1,
      signal: new AbortController().signal,
    });
    assert.equal(report.verdict, 'pass', JSON.stringify(report.reasons));
    assert.deepEqual(
      report.scenarios.map((probe) => probe.scenario),
      names,
    );
    for (const probe of report.scenarios)
      assert.ok(
        probe.error === undefined && probe.turns >= 2 && probe.provenance.coverage === 1,
        JSON.stringify(probe),
      );
    for (const name of names) assert.ok(existsSync(probeScenarioDir(workflowId, name, 1)), name);
  });

  test('a key only the real image shows (a path its build writes): the probe reads the image and rejects; from the build context it would pass', async () => {
    const stack = await bootstrap(harness.docker);
    const deps = {
      docker: harness.docker,
      owner: currentWorkerIdentity(),
      allowlist: loadAllowlist(),
      policyImage: stack.policyImage,
      sidecarImage: stack.sidecarImage,
      baseImageTag: stack.baseImage,
      budgetCapUsd: 1,
      policyRequestTimeoutMs: 60_000,
      // A sandbox host: it builds the scenario image if it lacks it (the run would build it there anyway).
      sandboxHost: { id: 'probe-image-test' },
    } as unknown as ActivityDependencies;
    const pack = await readPackDirectory(
      path.join(repoRoot, 'test', 'fixtures', 'packs', 'coaching', 'image-only-key'),
    );
    const policy = { kind: 'typescript' as const, bundleCode: (await bundlePack(pack)).code };
    const scenario = { name: 'git-purge-leaked-secret', dir: path.join(scenariosDir, 'git-purge-leaked-secret') };
    const probe = (workflowId: string, environments?: Parameters<typeof runProbe>[1]['environments']) =>
      runProbe(deps, {
        policy,
        scenarios: [scenario] as never,
        workflowId,
        attempt: 1,
        signal: new AbortController().signal,
        ...(environments ? { environments } : {}),
      });
    const fromImage = await probe(`probe-image-${process.pid}`);
    assert.match(fromImage.scenarios[0]!.environment ?? '', /^image sha256:/);
    assert.equal(fromImage.verdict, 'reject', JSON.stringify(fromImage.scenarios[0]));
    assert.deepEqual(
      fromImage.reasons.map((reason) => reason.code),
      ['injected_scenario_content'],
    );
    assert.ok(fromImage.scenarios[0]!.injected.some((piece) => piece.kind === 'solution-line'));
    // The same conversation served from the build context (what the probe read before): the key never shows.
    const fromContext = await probe(`probe-context-${process.pid}`, [
      { files: await environmentHeads(scenario.dir), source: { kind: 'build-context', reason: 'the test' } },
    ]);
    assert.equal(fromContext.verdict, 'pass', JSON.stringify(fromContext.reasons));
  });
});
