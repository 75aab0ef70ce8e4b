// Benchmark: one task's sandbox + verifier wall time per phase, this project's beside Harbor's trial
// runner on the same task (the oracle agent, no model time) and the `docker run --rm <base> true`
// floor. The project's arm uses the same pieces as runScenario / verifyScenario for an oracle run
// (ContainerSession, OracleAgent, collectAgentOutputs, runVerifier), called directly: Temporal's
// own cost is bench/temporal.ts's subject. Images are built before timing (warm runs only).
//   node --import tsx bench/sandbox.ts [--scenario csv-sales-report] [--runs 3] [--no-harbor]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type Docker from 'dockerode';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { ensureDockerEngine } from '../infra/docker-engine.ts';
import { ensureBaseImage } from '../infra/base-image.ts';
import { ensureScenarioImage } from '../sandbox/scenario-image.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { containerLabels } from '../sandbox/container-labels.ts';
import { collectAgentOutputs } from '../sandbox/agent-outputs.ts';
import { defaultAgentDiskBudgetBytes } from '../sandbox/container-limits.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { resolveTaskUsers } from '../catalog/task-users.ts';
import { testsInFolder } from '../catalog/count-tests.ts';
import { scenariosDir } from '../common/data-layout.ts';
import { runCommand } from '../common/run-command.ts';
import { OracleAgent } from '../agents/oracle-agent.ts';
import { runVerifier } from '../verifiers/run-verifier.ts';
import { renderTable } from '../cli/render-table.ts';
import { summarize } from './latency-stats.ts';
import {
  ensureComposePlugin,
  ensureHarbor,
  harborTaskCopy,
  harborVersion,
  listHarborImages,
  removeHarborProjects,
  removeNewHarborImages,
  runHarborTrial,
  type HarborTrial,
} from './harbor-peer.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'csv-sales-report' },
    runs: { type: 'string', default: '3' },
    'no-harbor': { type: 'boolean', default: false },
  },
});
const scenarioName = values.scenario;
const runs = Math.max(1, Number(values.runs));
const scenarioDir = path.join(scenariosDir, scenarioName);
const owner = currentWorkerIdentity();
const benchWorkflowId = `bench-sandbox-${process.pid}`;
const harborProjectPrefix = `trl-bench-${process.pid}-`;

interface Row {
  arm: string;
  phase: string;
  samplesMs: number[];
  note?: string;
}

const docker: Docker = createDockerClient();
await ensureDockerEngine(docker);
const baseImage = await ensureBaseImage(docker);
const folder = await loadScenario(scenarioDir);
const imageTag = await ensureScenarioImage(docker, baseImage, { name: scenarioName, dir: scenarioDir });
const inspected = (await docker.getImage(imageTag).inspect()) as { Config?: { User?: string; WorkingDir?: string } };
const users = resolveTaskUsers(scenarioName, folder.config, inspected.Config?.User ?? '');
const { config } = folder;
const workdir = config.environment.workdir ?? (inspected.Config?.WorkingDir || '/app');
const containerEnv = Object.entries(config.environment.env).map(([name, value]) => `${name}=${value}`);
const testsDeclared = await testsInFolder(path.join(scenarioDir, 'tests')).catch(() => 0);

/** The floor: the engine's own create + start + wait + remove of the base image. */
async function floorRun(): Promise<number> {
  const started = performance.now();
  await runCommand('docker', [
    'run',
    '--rm',
    '--network',
    'none',
    '--label',
    `trl.bench=${benchWorkflowId}`,
    baseImage,
    'true',
  ]);
  return performance.now() - started;
}

const projectPhases = [
  'agent container create + start',
  'agent run (oracle solve.sh)',
  'agent outputs copied out',
  'agent container remove',
  'verifier container create + start',
  'verifier (outputs in, tests, report)',
  'verifier container remove',
] as const;

/** One oracle run the way runScenario and verifyScenario do it, each phase timed. */
async function projectRun(): Promise<{ phasesMs: number[]; totalMs: number; tests: string }> {
  const phasesMs: number[] = [];
  let mark = performance.now();
  const lap = () => {
    const now = performance.now();
    phasesMs.push(now - mark);
    mark = now;
  };
  const started = mark;
  const spec = {
    image: imageTag,
    scenario: scenarioName,
    workflowId: benchWorkflowId,
    cpus: config.environment.cpus,
    memoryMb: config.environment.memory_mb,
    owner,
    env: containerEnv,
  };
  const agentSession = await ContainerSession.start(docker, {
    ...spec,
    role: 'agent',
    networkMode: 'none',
    storageBytes: defaultAgentDiskBudgetBytes,
  });
  let archive: Buffer;
  try {
    lap();
    const account = await agentSession.exec({
      command: ['getent', 'passwd', users.agent],
      deadlineMs: performance.now() + 30_000,
    });
    const fields = account.stdout.trim().split(':');
    const record = await new OracleAgent().run({
      session: agentSession,
      task: {
        scenario: scenarioName,
        scenarioDir,
        instruction: folder.instruction,
        workdir,
        user: { name: fields[0]!, uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] || '/tmp' },
        env: Object.entries(config.agent.env).map(([name, value]) => `${name}=${value}`),
        solutionEnv: Object.entries(config.solution.env).map(([name, value]) => `${name}=${value}`),
      },
      deadlineMs: performance.now() + config.agent.timeout_sec * 1000,
      onTick: () => undefined,
    });
    if (record.exitCode !== 0)
      throw new Error(`the oracle exited ${record.exitCode}: ${record.transcript.slice(-400)}`);
    lap();
    archive = (await collectAgentOutputs(agentSession, config.agent_outputs ?? [], 64 * 1024 * 1024)).archive;
    lap();
  } finally {
    await agentSession.remove();
  }
  lap();
  const verifierSession = await ContainerSession.start(docker, { ...spec, role: 'verifier' });
  try {
    lap();
    const verified = await runVerifier({
      session: verifierSession,
      scenarioDir,
      outputsArchive: archive,
      timeoutSec: config.verifier.timeout_sec,
      declaredTests: testsDeclared,
      ...(users.verifier ? { user: users.verifier } : {}),
      env: config.verifier.env,
      onTick: () => undefined,
    });
    lap();
    await verifierSession.remove();
    lap();
    return {
      phasesMs,
      totalMs: performance.now() - started,
      tests: `${verified.counts.testsPassed}/${verified.counts.testsTotal}`,
    };
  } finally {
    await verifierSession.remove();
  }
}

/** Containers a failed run left behind, by the bench's labels. */
async function removeBenchContainers(): Promise<void> {
  for (const filter of [
    { label: [`trl.bench=${benchWorkflowId}`] },
    { label: [`${containerLabels.workflowId}=${benchWorkflowId}`] },
  ]) {
    const containers = await docker.listContainers({ all: true, filters: filter }).catch(() => []);
    for (const container of containers)
      await docker
        .getContainer(container.Id)
        .remove({ force: true })
        .catch(() => undefined);
  }
}

const rows: Row[] = [];
try {
  // Warm-up, not counted: page cache, the engine's image metadata.
  await floorRun();
  const floor: number[] = [];
  for (let index = 0; index < runs; index += 1) floor.push(await floorRun());
  rows.push({ arm: 'floor', phase: `docker run --rm ${baseImage.split(':')[0]} true`, samplesMs: floor });

  await projectRun();
  const projectTotals: number[] = [];
  const perPhase: number[][] = projectPhases.map(() => []);
  let tests = '';
  for (let index = 0; index < runs; index += 1) {
    const result = await projectRun();
    result.phasesMs.forEach((ms, phase) => perPhase[phase]!.push(ms));
    projectTotals.push(result.totalMs);
    tests = result.tests;
  }
  projectPhases.forEach((phase, index) => rows.push({ arm: 'this project', phase, samplesMs: perPhase[index]! }));
  rows.push({ arm: 'this project', phase: `total (tests ${tests})`, samplesMs: projectTotals });

  if (values['no-harbor']) {
    rows.push({ arm: `Harbor ${harborVersion}`, phase: 'not run: --no-harbor', samplesMs: [] });
  } else {
    rows.push(...(await harborRows()));
  }
} finally {
  await removeBenchContainers();
}

async function harborRows(): Promise<Row[]> {
  const arm = `Harbor ${harborVersion}`;
  const harbor = await ensureHarbor(15 * 60_000);
  if ('reason' in harbor) return [{ arm, phase: `not run: ${harbor.reason}`, samplesMs: [] }];
  const compose = await ensureComposePlugin(40 * 60_000);
  if ('reason' in compose) return [{ arm, phase: `not run: ${compose.reason}`, samplesMs: [] }];
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'trl-bench-harbor-'));
  const imagesBefore = await listHarborImages();
  const trials: HarborTrial[] = [];
  try {
    const taskDir = await harborTaskCopy(scenarioDir, workDir, baseImage);
    const trialsDir = path.join(workDir, 'trials');
    // Trial names become compose project names: the bench's prefix finds what a stopped trial left.
    const trial = (name: string) =>
      runHarborTrial({
        executable: harbor.executable,
        dockerConfigDir: compose.dockerConfigDir,
        taskDir,
        trialsDir,
        trialName: `${harborProjectPrefix}${name}`,
        timeoutMs: 15 * 60_000,
      });
    try {
      // Warm-up, not counted: Harbor builds the task's image with compose here.
      await trial('warm-up');
      for (let index = 0; index < runs; index += 1) trials.push(await trial(`run-${index + 1}`));
    } catch (error) {
      return [{ arm, phase: `not run: ${(error as Error).message.replace(/\s+/g, ' ')}`, samplesMs: [] }];
    }
  } finally {
    await removeHarborProjects(harborProjectPrefix).catch(() => undefined);
    await removeNewHarborImages(imagesBefore).catch(() => undefined);
    await rm(workDir, { recursive: true, force: true });
  }
  const phase = (name: string, pick: (trial: HarborTrial) => number | undefined): Row => ({
    arm,
    phase: name,
    samplesMs: trials.map(pick).filter((ms): ms is number => ms !== undefined),
  });
  const rewards = trials.map((trial) => trial.reward ?? Number.NaN).join(', ');
  return [
    phase('environment start (compose build + up)', (trial) => trial.phasesMs.environmentSetup),
    phase('agent setup', (trial) => trial.phasesMs.agentSetup),
    phase('agent run (oracle solve.sh)', (trial) => trial.phasesMs.agentExecution),
    phase('agent → verifier hand-over', (trial) => trial.phasesMs.handOver),
    phase('verifier (tests in, test.sh, rewards)', (trial) => trial.phasesMs.verifier),
    phase('after the verifier (compose down --rmi local)', (trial) => trial.phasesMs.afterVerifier),
    phase('trial span (result.json started → finished)', (trial) => trial.trialMs),
    phase(`total, process wall (rewards ${rewards})`, (trial) => trial.wallMs),
  ];
}

const seconds = (ms: number) => (Number.isNaN(ms) ? '' : (ms / 1000).toFixed(2));
const summaryOf = (row: Row) => summarize(row.samplesMs);
process.stdout.write(
  `${scenarioName}, oracle agent, warm images, ${runs} runs per arm after one warm-up; ${os.cpus().length} cores, 1-min load average at the end ${os.loadavg()[0]!.toFixed(1)}\n\n`,
);
process.stdout.write(
  `${renderTable(
    [
      { header: 'arm', value: (row: Row) => row.arm },
      { header: 'phase', value: (row: Row) => row.phase },
      { header: 'median s', value: (row: Row) => seconds(summaryOf(row).p50), align: 'right' },
      { header: 'min s', value: (row: Row) => seconds(summaryOf(row).min), align: 'right' },
      { header: 'max s', value: (row: Row) => seconds(summaryOf(row).max), align: 'right' },
    ],
    rows,
  )}\n`,
);
