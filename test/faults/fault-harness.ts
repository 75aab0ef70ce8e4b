// What every fault test shares: a small evaluation through Hermes on a calm sim fleet (no injected
// faults, time scale 0, so a disturbed run can be compared with an undisturbed one), workers in
// processes of their own (each with its own temp folder), how a disturbed run is judged against the
// undisturbed one, and the check that nothing was left behind.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { examplesDir } from '../../common/data-layout.ts';
import { defaultAllowlistFile } from '../../gateway/catalog/allowlist.ts';
import { containerLabels } from '../../sandbox/container-labels.ts';
import { startEvaluation } from '../../cli/client/start-evaluation.ts';
import { evaluationWorkflowId } from '../../contracts/temporal-names.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import type { SubmissionInput } from '../../contracts/submission.ts';
import { startWorkerProcess } from '../support/worker-process.ts';
import { uniqueId } from '../support/evaluation-harness.ts';

/** One small scenario, one pack, one seed: what every fault test evaluates. */
export const faultSubmission = {
  pack: { kind: 'directory' as const, path: path.join(examplesDir, 'pin-glm-flash') },
  agent: 'hermes' as const,
  scenarios: ['csv-sales-report'],
  seed: 1,
} satisfies Omit<SubmissionInput, 'submissionId'>;

const ownTempDirs: string[] = [];
function ownTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  ownTempDirs.push(dir);
  return dir;
}

/** Removes the temp folders this file made (models files, workers' TMPDIRs): call in `after`. */
export function removeFaultTempDirs(): void {
  for (const dir of ownTempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A models file with the sim fleet's injected 429/5xx turned off: its answers then depend on the
 * request alone, so a re-run after a fault meets the same models as the undisturbed run did.
 */
export function calmModelsFile(): string {
  const models = JSON.parse(readFileSync(defaultAllowlistFile, 'utf8'));
  for (const model of models.models) Object.assign(model.sim, { rateLimitRate: 0, serverErrorRate: 0 });
  const file = path.join(ownTempDir('trl-faults-models-'), 'models.json');
  writeFileSync(file, JSON.stringify(models));
  return file;
}

export interface FaultWorker {
  child: ChildProcess;
  /** The worker's TMPDIR: checked empty once the run is over. */
  tempDir: string;
  /** The end of what the worker wrote to stderr (why it died, if it did). */
  stderrTail(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** An all-in-one worker in its own process, on the calm fleet, with its own temp folder. */
export async function startFaultWorker(
  taskQueue: string,
  env: Record<string, string | undefined> = {},
): Promise<FaultWorker> {
  const tempDir = ownTempDir('trl-faults-tmp-');
  const child = await startWorkerProcess(taskQueue, { TRL_SIM_TIME_SCALE: '0', TMPDIR: tempDir, ...env });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  return {
    child,
    tempDir,
    stderrTail: () => tail,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

export function startFaultEvaluation(client: Client, taskQueue: string, prefix: string): Promise<WorkflowHandle> {
  return startEvaluation(client, { submissionId: uniqueId(prefix), ...faultSubmission }, taskQueue);
}

/** What must match between a disturbed run and an undisturbed one. */
export function outcomeOf(result: EvaluationResult) {
  return {
    status: result.status,
    testsPassed: result.testsPassed,
    testsTotal: result.testsTotal,
    perScenario: result.perScenario.map((s) => ({
      name: s.name,
      status: s.status,
      testsPassed: s.testsPassed,
      testsTotal: s.testsTotal,
    })),
  };
}

export type Verdict = 'identical' | 'incomplete' | 'wrong';

/**
 * `identical`: completed with the undisturbed run's per-scenario results. `incomplete`: the
 * evaluation says so, each scenario that differs is the infrastructure's (`infra_error`, never
 * scored), and everything it recorded is still on disk. Anything else is `wrong`.
 */
export function verdictOf(baseline: EvaluationResult, result: EvaluationResult): { verdict: Verdict; why: string } {
  const expected = outcomeOf(baseline);
  const got = outcomeOf(result);
  if (JSON.stringify(got) === JSON.stringify(expected))
    return { verdict: 'identical', why: 'same per-scenario results' };
  if (result.status !== 'incomplete')
    return {
      verdict: 'wrong',
      why: `status ${result.status}: ${JSON.stringify(got.perScenario)} vs ${JSON.stringify(expected.perScenario)}`,
    };
  if (result.perScenario.length !== baseline.perScenario.length)
    return { verdict: 'wrong', why: 'scenarios missing from the result' };
  for (const scenario of result.perScenario) {
    const undisturbed = expected.perScenario.find((s) => s.name === scenario.name);
    const same =
      undisturbed && undisturbed.status === scenario.status && undisturbed.testsPassed === scenario.testsPassed;
    if (!same && scenario.status !== 'infra_error')
      return {
        verdict: 'wrong',
        why: `${scenario.name}: ${scenario.status} ${scenario.testsPassed}/${scenario.testsTotal} (${scenario.error ?? ''})`,
      };
  }
  const lost = recordedFiles(result).filter((file) => !existsSync(file));
  if (lost.length > 0) return { verdict: 'wrong', why: `recorded files lost: ${lost.join(', ')}` };
  return {
    verdict: 'incomplete',
    why: result.perScenario.map((s) => `${s.name}: ${s.status} ${s.error ?? ''}`).join('; '),
  };
}

function recordedFiles(result: EvaluationResult): string[] {
  const files = result.resultFile ? [result.resultFile.path] : [];
  for (const scenario of result.perScenario)
    for (const ref of Object.values(scenario.artifacts)) if (ref?.path) files.push(ref.path);
  return files;
}

/** Containers and networks of the run still on the engine. */
export async function leftoversOf(docker: Docker, workflowId: string): Promise<string[]> {
  const filters = { label: [`${containerLabels.managed}=1`, `${containerLabels.workflowId}=${workflowId}`] };
  const containers = await docker.listContainers({ all: true, filters });
  const networks = await docker.listNetworks({ filters });
  return [...containers.map((c) => `container ${c.Names[0] ?? c.Id}`), ...networks.map((n) => `network ${n.Name}`)];
}

/** The worker survives the fault (a fault is never a reason for the worker process to die). */
export function assertWorkerAlive(worker: FaultWorker): void {
  assert.ok(
    worker.child.exitCode === null && worker.child.signalCode === null,
    `the worker died: ${worker.stderrTail()}`,
  );
}

/**
 * Asserts the run left no container, network or temp file behind. A removal the engine could not
 * take at the time (it was restarting) is done in the background once it answers: up to a minute.
 */
export async function assertNothingLeft(docker: Docker, workflowId: string, workers: FaultWorker[]): Promise<void> {
  let left = await leftoversOf(docker, workflowId);
  for (let waitedMs = 0; left.length > 0 && waitedMs < 60_000; waitedMs += 2000) {
    await sleep(2000);
    left = await leftoversOf(docker, workflowId);
  }
  assert.deepEqual(left, [], `left behind by ${workflowId}`);
  // tsx keeps its compile cache in the temp folder; that is the only thing allowed to stay.
  for (const worker of workers)
    assert.deepEqual(
      readdirSync(worker.tempDir).filter((name) => !name.startsWith('tsx-')),
      [],
      `temp files left in ${worker.tempDir}`,
    );
}

export { evaluationWorkflowId };

/** A seeded generator (mulberry32): the same kill points on every run of the suite. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
