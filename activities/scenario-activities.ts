// prepareScenario (image build), runScenario (agent in its sandbox), verifyScenario (fresh verifier,
// verify-scenario.ts).
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ArtifactRef } from '../contracts/artifact.ts';
import { isPolicyDriven, type AgentName } from '../contracts/agent-kinds.ts';
import type { AgentRunResult, PackRef, PreparedScenario, ScenarioDescriptor } from '../contracts/results.ts';
import { hiddenContentOf } from './hidden-content.ts';
import { startAgentEnvironment, type AgentEnvironment } from './agent-environment.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { selectScenarios } from '../catalog/list-scenarios.ts';
import { readRegistry } from '../catalog/registry.ts';
import { artifactNames, scenarioAttemptDir, scenariosDir } from '../common/data-layout.ts';
import { ensureScenarioImage } from '../sandbox/scenario-image.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { collectAgentOutputs } from '../sandbox/agent-outputs.ts';
import { defaultAgentDiskBudgetBytes } from '../sandbox/container-limits.ts';
import { watchDisk, type DiskWatchdog } from '../sandbox/disk-watchdog.ts';
import { packFiles } from '../sandbox/tar-archive.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { boundAgentRunResult } from './payload-bounds.ts';
import { policyOf, readVerified } from './pack-policy.ts';
import { workflowIdOf, type ActivityDependencies } from './activity-context.ts';
import { failureTypes } from '../contracts/failure-types.ts';
import { defaultCrashRestarts } from '../agents/crash-restart.ts';
import { gatewaySpendUsd, reserveAttemptSpend } from '../gateway/spend/attempt-spend.ts';
import { policyRecordNames } from '../policy/host/policy-run.ts';
import { scenarioContentHash } from '../catalog/scenario-content-hash.ts';
import { isTaskFolder, resolveTaskUsers } from '../catalog/task-users.ts';
import { scenarioTestCount } from '../verifiers/scenario-test-count.ts';
import { snapshotAgentContainer, snapshotTag, type AgentSnapshot } from '../sandbox/agent-snapshot.ts';
import { agentUser } from '../agents/scenario-agent.ts';
import { recordAgentRun } from '../common/metrics.ts';
import { withLogFields } from '../common/log.ts';
import { asTaskInvalid } from './task-invalid.ts';
import { createVerifyScenario } from './verify-scenario.ts';
import { agentAccountIn, handOver, ownerOf } from './agent-account.ts';
import { ensureRegistryTape } from './registry-tape.ts';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

export function createScenarioActivities(deps: ActivityDependencies) {
  async function resolveScenarios(request: {
    names: string[];
    scenariosDir?: string;
  }): Promise<{ spec: number | null; scenarios: ScenarioDescriptor[] }> {
    const selected = await selectScenarios(request.names, request.scenariosDir);
    // A task that does not load is not loaded here: prepareScenario makes it that scenario's
    // task_invalid, and the others run.
    const registry = await readRegistry(path.resolve(request.scenariosDir ?? scenariosDir));
    return { spec: request.names.length === 0 ? (registry?.spec ?? null) : null, scenarios: selected };
  }

  /** A task that does not load or build fails as `scenario_invalid` with its metadata (activities/task-invalid.ts). */
  async function prepareScenario(scenario: ScenarioDescriptor): Promise<PreparedScenario> {
    try {
      return await prepareLoadedScenario(scenario);
    } catch (error) {
      throw await asTaskInvalid(error, scenario);
    }
  }

  async function prepareLoadedScenario(scenario: ScenarioDescriptor): Promise<PreparedScenario> {
    const folder = await loadScenario(scenario.dir);
    const context = Context.current();
    const imageTag = await ensureScenarioImage(deps.docker, deps.baseImageTag, scenario);
    const { config } = folder;
    const image = await inspectScenarioImage(deps.docker, imageTag);
    const users = resolveTaskUsers(scenario.name, config, image.user);
    // A task on a public base was written for Harbor, whose agent is root: its files in the working directory are
    // the agent's to change (TB1 imports hand them over in their Dockerfile; this does it for Harbor tasks as published).
    const workdirToAgent =
      folder.publicBase &&
      users.standsInForRoot &&
      isTaskFolder(config.environment.workdir ?? (image.workdir || '/app'));
    if (workdirToAgent)
      users.notes.push(
        `the agent (uid 1000) works where Harbor's agent is root: ${config.environment.workdir ?? (image.workdir || '/app')} (the WORKDIR) is handed to it before each run`,
      );
    const asEnv = (table: Record<string, string>) => Object.entries(table).map(([name, value]) => `${name}=${value}`);
    const contentHash = await scenarioContentHash(scenario.dir);
    // Collection imports the test modules: it runs in the scenario image, never in this process.
    const tests = await scenarioTestCount({
      docker: deps.docker,
      imageTag,
      imageId: image.id,
      scenario,
      contentHash,
      owner: deps.owner,
      workflowId: workflowIdOf(context.info),
      env: asEnv(config.environment.env),
    });
    // A test.sh that installs from the registries is rehearsed once per image (activities/registry-tape.ts).
    // A rehearsal that fails here (the engine, a registry) is tried again when the scenario is verified.
    const tape = await ensureRegistryTape(
      deps,
      {
        name: scenario.name,
        dir: scenario.dir,
        imageTag,
        contentHash,
        cpus: config.environment.cpus,
        memoryMb: config.environment.memory_mb,
        containerEnv: asEnv(config.environment.env),
        ...(users.verifier ? { verifierUser: users.verifier } : {}),
        workdir: config.environment.workdir ?? (image.workdir || '/app'),
        verifierEnv: asEnv(config.verifier.env),
        verifierTimeoutSec: config.verifier.timeout_sec,
        testsDeclared: tests.count,
      },
      workflowIdOf(context.info),
    ).catch((error: Error) => ({ notes: [`the registry tape's rehearsal failed (${error.message.slice(0, 200)})`] }));
    const notes = [...folder.notes, ...users.notes, ...tests.notes, ...(tape?.notes ?? [])];
    return {
      name: scenario.name,
      dir: scenario.dir,
      imageTag,
      ...(config.metadata.category ? { category: config.metadata.category } : {}),
      ...(config.metadata.difficulty ? { difficulty: config.metadata.difficulty } : {}),
      agentTimeoutSec: config.agent.timeout_sec,
      agentMaxTurns: config.agent.max_turns,
      verifierTimeoutSec: config.verifier.timeout_sec,
      cpus: config.environment.cpus,
      memoryMb: config.environment.memory_mb,
      agentOutputs: config.agent_outputs ?? [],
      agentUser: users.agent,
      imageUser: image.user,
      ...(workdirToAgent ? { workdirToAgent: true } : {}),
      ...(users.verifier ? { verifierUser: users.verifier } : {}),
      workdir: config.environment.workdir ?? (image.workdir || '/app'),
      containerEnv: asEnv(config.environment.env),
      agentEnv: asEnv(config.agent.env),
      solutionEnv: asEnv(config.solution.env),
      verifierEnv: asEnv(config.verifier.env),
      ...(config.environment.storage_mb ? { storageMb: config.environment.storage_mb } : {}),
      testsDeclared: tests.count,
      testsCountedBy: tests.source,
      ...(notes.length ? { notes } : {}),
      contentHash,
    };
  }

  /** `round`: the workflow's own try of the scenario (after calls failed upstream), so each try keeps its folder. */
  async function runScenario(request: {
    scenario: PreparedScenario;
    agent: AgentName;
    pack: PackRef;
    seed: number;
    submissionId?: string;
    round?: number;
    tape?: ArtifactRef;
  }): Promise<AgentRunResult> {
    const context = Context.current();
    const { scenario } = request;
    const info = context.info;
    const workflowId = workflowIdOf(info);
    const dir = scenarioAttemptDir(workflowId, scenario.name, 'agent', info.attempt, request.round);
    const folder = await loadScenario(scenario.dir);
    const paid = isPolicyDriven(request.agent);
    const { policy, skill } = paid ? await policyOf(request.pack) : { policy: undefined, skill: undefined };
    // Paid work (the policy's gateway) starts only once the spend ledger holds the scenario cap for
    // this attempt; past a ceiling this throws a non-retryable spend_ceiling_reached.
    const spend = paid
      ? await reserveAttemptSpend(deps.spendLedger, {
          attempt: {
            workflowId,
            runId: info.workflowExecution?.runId ?? '',
            activityId: info.activityId,
            attempt: info.attempt,
          },
          submissionId: request.submissionId ?? workflowId,
          scenario: scenario.name,
          capUsd: deps.budgetCapUsd,
          owner: { host: deps.owner.host, pid: deps.owner.pid },
          callLogFile: path.join(dir, policyRecordNames.callLog),
        })
      : undefined;
    // A tape run: the recorded calls answer (zero-token usage: $0); the first unmatched request ends the scenario.
    const tape =
      request.tape && deps.tapeUpstream
        ? deps.tapeUpstream((await readVerified(request.tape)).toString('utf8'))
        : undefined;
    const tapeRun = tape ? { upstream: tape.client } : {};
    // The scenario's hidden content for the gateway's injection check, read before the agent's clock starts.
    const hiddenContent = paid ? await hiddenContentOf(scenario.dir, scenario.name) : undefined;
    const started = performance.now();
    const deadlineMs = started + scenario.agentTimeoutSec * 1000;
    let environment: AgentEnvironment;
    // [environment] storage_mb lowers the worker's disk budget for this scenario, never raises it.
    const diskBudgetBytes = scenario.storageMb
      ? Math.min(defaultAgentDiskBudgetBytes, scenario.storageMb * 1024 * 1024)
      : defaultAgentDiskBudgetBytes;
    try {
      environment = await startAgentEnvironment(deps, {
        scenario,
        agent: request.agent,
        policy,
        skill,
        ...((request.round ?? 1) > 1 || info.attempt > 1 ? { tryKey: `${request.round ?? 1}.${info.attempt}` } : {}),
        seed: request.seed,
        workflowId,
        dir,
        deadlineMs,
        signal: context.cancellationSignal,
        ...(hiddenContent ? { hiddenContent } : {}),
        ...(readSetting(workerSettings, 'TRL_INJECTION_CHECK') === 'observe' ? { observeInjectionOnly: true } : {}),
        ...tapeRun,
      });
    } catch (error) {
      await spend?.release('the agent environment did not start');
      throw error;
    }
    let disk: DiskWatchdog | undefined;
    try {
      const { agent, session, startFailure, stopSignal: policyStop } = environment;
      // The agent's disk budget: past it the agent is stopped and its outputs are not collected, so
      // the scenario scores as no output (the policy's failure, with a note), never the worker's.
      const diskStop = new AbortController();
      disk = watchDisk(session.container, diskBudgetBytes, (bytes) =>
        diskStop.abort(new Error(`the agent wrote ${bytes} bytes, over the ${diskBudgetBytes}-byte disk budget`)),
      );
      const account = await agentAccountIn(session, scenario.agentUser ?? agentUser);
      if (scenario.workdirToAgent) await handOver(session, scenario.workdir ?? '/app', account);
      // The oracle (validator-side reference, never agent code) runs as the image's default user, as in
      // Harbor, unless the task was built for the agent: a working directory the agent owns (this
      // project's scenarios) is worked by its owner, as their solutions were written to be (git refuses
      // a repository root does not own).
      const solutionAccount =
        request.agent === 'oracle' &&
        scenario.imageUser !== undefined &&
        (await ownerOf(session, scenario.workdir ?? '/app')) !== account.name
          ? await agentAccountIn(session, scenario.imageUser.split(':')[0] || 'root')
          : undefined;
      const stops = [policyStop, diskStop.signal, tape?.ended].filter((signal) => signal !== undefined);
      const stopSignal = stops.length > 1 ? AbortSignal.any(stops) : diskStop.signal;
      // A policy that never became ready fails the attempt at once (its fault is in the summary);
      // the untouched workspace is still collected and verified.
      const record = startFailure
        ? { exitCode: null, timedOut: false, transcript: `[the agent did not start: ${startFailure.message}]` }
        : await agent.run({
            session,
            task: {
              scenario: scenario.name,
              scenarioDir: scenario.dir,
              instruction: folder.instruction,
              workdir: scenario.workdir ?? '/app',
              user: account,
              env: scenario.agentEnv ?? [],
              solutionEnv: scenario.solutionEnv ?? [],
              ...(solutionAccount ? { solutionUser: solutionAccount } : {}),
            },
            deadlineMs,
            // The watchdog stops the agent like a cancellation would; what it wrote is verified.
            signal: AbortSignal.any([context.cancellationSignal, stopSignal]),
          });
      disk.stop();
      if (record.crashedBeforeFirstRequest) {
        throw ApplicationFailure.create({
          type: failureTypes.agentCrashed,
          message: `the agent crashed (${record.crashedBeforeFirstRequest}) before its first request to the policy, ${1 + defaultCrashRestarts} times: not the pack's doing`,
        });
      }
      if (stopSignal.aborted) record.transcript += `\n[stopped: ${(stopSignal.reason as Error).message}]`;
      if (context.cancellationSignal.aborted) throw new CancelledFailure('runScenario cancelled');
      const wallMs = Math.round(performance.now() - started);
      // Partial outputs of an agent stopped at its deadline are still collected and verified.
      // Without declared outputs, the stopped container itself is the verifier's start.
      const fromSnapshot = scenario.agentOutputs.length === 0;
      let snapshot: AgentSnapshot | undefined;
      const collected =
        disk.breachBytes !== undefined
          ? {
              archive: await packFiles([]),
              fileCount: 0,
              notes: [`outputs not collected: ${(diskStop.signal.reason as Error).message}`],
            }
          : fromSnapshot
            ? { archive: await packFiles([]), fileCount: 0, notes: [] as string[] }
            : await collectAgentOutputs(session, scenario.agentOutputs, deps.maxAgentOutputBytes);
      if (fromSnapshot && disk.breachBytes === undefined) {
        snapshot = await snapshotAgentContainer(deps.docker, session, {
          owner: deps.owner,
          scenario: scenario.name,
          tag: snapshotTag([scenario.name, workflowId, String(request.round ?? 1), String(info.attempt)]),
        });
        collected.notes.push(
          `verified from a snapshot of the agent's container (no agent_outputs declared): ${(snapshot.sizeBytes / 1e6).toFixed(2)} MB committed in ${(snapshot.commitMs / 1000).toFixed(1)} s`,
        );
      }
      const outputs = await writeArtifact(path.join(dir, artifactNames.agentOutputs), collected.archive);
      const agentLog = await writeArtifact(
        path.join(dir, artifactNames.agentLog),
        record.transcript + (collected.notes.length ? `\n[outputs]\n${collected.notes.join('\n')}\n` : ''),
      );
      const ownRecords = agent.records?.();
      const agentRecords = ownRecords
        ? await writeArtifact(path.join(dir, artifactNames.hermesRecords), ownRecords)
        : undefined;
      const summary = await environment.close();
      // The policy's sandbox killed from outside is neither the policy's doing nor the agent's: the
      // attempt fails as the infrastructure's (blame row `sandbox_killed`) and Temporal tries it again.
      if (summary?.sandboxLost) throw new Error(`the attempt lost its sandbox: ${summary.sandboxLost}`);
      const divergence = tape?.divergence();
      if (divergence)
        throw ApplicationFailure.create({
          type: failureTypes.tapeDiverged,
          message: divergence.message,
          nonRetryable: true,
        });
      // A replay stopped where its recording stopped (a call open at the recording's agent deadline) ends as the
      // recording did: at the agent's deadline.
      const outcome =
        record.timedOut || tape?.ended.aborted ? 'agent_timeout' : record.exitCode === 0 ? 'completed' : 'agent_error';
      recordAgentRun({ agent: request.agent, outcome, wallMs });
      return boundAgentRunResult({
        outcome,
        exitCode: record.exitCode,
        wallMs,
        outputs,
        agentLog,
        agentRecords,
        outputNotes: collected.notes,
        ...(snapshot ? { snapshotImage: snapshot.imageTag } : {}),
        policy: summary && {
          costUsd: summary.costUsd,
          costByModelUsd: summary.costByModelUsd,
          calls: summary.calls,
          agentRequests: summary.agentRequests,
          budgetRefusals: summary.budgetRefusals,
          upstreamFailures: summary.upstreamFailures,
          abandonedCalls: summary.abandonedCalls,
          provenance: summary.provenance,
          ...(summary.injection ? { injection: summary.injection } : {}),
          faults: summary.faults,
          callLog: summary.callLog,
          policyLog: summary.policyLog,
          turnLog: summary.turnLog,
        },
      });
    } finally {
      disk?.stop();
      try {
        await environment.close();
      } finally {
        // Success, failure or cancellation: the attempt's spend goes into the ledger.
        await spend?.settle(environment.policyRun ? gatewaySpendUsd(environment.policyRun.gateway.ledger) : 0);
      }
    }
  }

  const verifyScenario = createVerifyScenario(deps);

  // Every log line written while a scenario's activity runs names the scenario.
  return {
    resolveScenarios,
    prepareScenario: (scenario: ScenarioDescriptor) =>
      withLogFields({ scenario: scenario.name }, () => prepareScenario(scenario)),
    runScenario: (request: Parameters<typeof runScenario>[0]) =>
      withLogFields({ scenario: request.scenario.name }, () => runScenario(request)),
    verifyScenario: (request: Parameters<typeof verifyScenario>[0]) =>
      withLogFields({ scenario: request.scenario.name }, () => verifyScenario(request)),
  };
}

/** The image's id (the test-count cache key), USER and WORKDIR (the defaults Harbor runs a task's agent with). */
async function inspectScenarioImage(
  docker: ActivityDependencies['docker'],
  imageTag: string,
): Promise<{ id: string; user: string; workdir: string }> {
  const inspected = (await docker.getImage(imageTag).inspect()) as {
    Id: string;
    Config?: { User?: string; WorkingDir?: string };
  };
  return { id: inspected.Id, user: inspected.Config?.User ?? '', workdir: inspected.Config?.WorkingDir ?? '' };
}
