// prepareScenario (image build), runScenario (agent in its sandbox), verifyScenario (fresh verifier).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ArtifactRef } from '../contracts/artifact.ts';
import { isPolicyDriven, type AgentName } from '../contracts/agent-kinds.ts';
import type { AgentRunResult, PackRef, PreparedScenario, ScenarioDescriptor, VerificationResult } from '../contracts/results.ts';
import { startAgentEnvironment, type AgentEnvironment, type PolicySource } from './agent-environment.ts';
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
import { runVerifier, VerifierFailure } from '../verifiers/run-verifier.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { boundAgentRunResult } from './payload-bounds.ts';
import type { ActivityDependencies } from './activity-context.ts';
import { failureTypes, packFailureTypes } from '../contracts/failure-types.ts';
import { gatewaySpendUsd, reserveAttemptSpend } from '../gateway/spend/attempt-spend.ts';
import { policyRecordNames } from '../policy/host/policy-run.ts';
import { canonicalPackSchema } from '../packs/canonical-pack.ts';
import { skillFile } from '../packs/pack-format.ts';
import { scenarioContentHash } from '../catalog/scenario-content-hash.ts';

export function createScenarioActivities(deps: ActivityDependencies) {
  async function resolveScenarios(request: { names: string[]; scenariosDir?: string }): Promise<{ spec: number | null; scenarios: ScenarioDescriptor[] }> {
    const selected = await selectScenarios(request.names, request.scenariosDir);
    // Load each now so a malformed task.toml fails the evaluation before any sandbox starts.
    for (const scenario of selected) await loadScenario(scenario.dir);
    const registry = await readRegistry(path.resolve(request.scenariosDir ?? scenariosDir));
    return { spec: request.names.length === 0 ? registry?.spec ?? null : null, scenarios: selected };
  }

  async function prepareScenario(scenario: ScenarioDescriptor): Promise<PreparedScenario> {
    const folder = await loadScenario(scenario.dir);
    const context = Context.current();
    const imageTag = await ensureScenarioImage(deps.docker, deps.baseImageTag, scenario, () => context.heartbeat());
    const { config } = folder;
    return {
      name: scenario.name,
      dir: scenario.dir,
      imageTag,
      category: config.metadata.category,
      difficulty: config.metadata.difficulty,
      agentTimeoutSec: config.agent.timeout_sec,
      agentMaxTurns: config.agent.max_turns,
      verifierTimeoutSec: config.verifier.timeout_sec,
      cpus: config.environment.cpus,
      memoryMb: config.environment.memory_mb,
      agentOutputs: config.agent_outputs,
      contentHash: await scenarioContentHash(scenario.dir),
    };
  }

  async function readVerified(ref: ArtifactRef): Promise<Buffer> {
    const bytes = await readFile(ref.path);
    if (createHash('sha256').update(bytes).digest('hex') !== ref.sha256) {
      throw ApplicationFailure.create({ type: failureTypes.artifactCorrupt, message: `${ref.path} does not match its recorded sha256`, nonRetryable: true });
    }
    return bytes;
  }

  /** What a policy-driven run needs of the pack: its policy (by kind) and its SKILL.md, read by hash. */
  async function policyOf(pack: PackRef): Promise<{ policy: PolicySource; skill: string | undefined }> {
    const { files } = canonicalPackSchema.parse(JSON.parse((await readVerified(pack.canonical)).toString('utf8')));
    const { [skillFile]: skill, ...policyFiles } = files;
    if (pack.kind === 'typescript' && pack.bundle) return { policy: { kind: 'typescript', bundleCode: (await readVerified(pack.bundle)).toString('utf8') }, skill };
    if (pack.kind === 'python' || pack.kind === 'data') return { policy: { kind: pack.kind, files: policyFiles }, skill };
    throw ApplicationFailure.create({ type: packFailureTypes.invalid, message: 'the pack has no single entry (policy.ts / policy.py / policy.json); pre-evaluation should have rejected it', nonRetryable: true });
  }

  /** `round`: the workflow's own try of the scenario (after calls failed upstream), so each try keeps its folder. */
  async function runScenario(request: { scenario: PreparedScenario; agent: AgentName; pack: PackRef; seed: number; submissionId?: string; round?: number; tape?: ArtifactRef }): Promise<AgentRunResult> {
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
          attempt: { workflowId, runId: info.workflowExecution?.runId ?? '', activityId: info.activityId, attempt: info.attempt },
          submissionId: request.submissionId ?? workflowId,
          scenario: scenario.name,
          capUsd: deps.budgetCapUsd,
          owner: { host: deps.owner.host, pid: deps.owner.pid },
          callLogFile: path.join(dir, policyRecordNames.callLog),
        })
      : undefined;
    // A tape run: the recorded calls answer (zero-token usage: $0); the first unmatched request ends the scenario.
    const tape = request.tape && deps.tapeUpstream ? deps.tapeUpstream((await readVerified(request.tape)).toString('utf8')) : undefined;
    const tapeRun = tape ? { upstream: tape.client } : {};
    const started = performance.now();
    const deadlineMs = started + scenario.agentTimeoutSec * 1000;
    let environment: AgentEnvironment;
    try {
      environment = await startAgentEnvironment(deps, { scenario, agent: request.agent, policy, skill, ...((request.round ?? 1) > 1 || info.attempt > 1 ? { tryKey: `${request.round ?? 1}.${info.attempt}` } : {}), seed: request.seed, workflowId, dir, deadlineMs, signal: context.cancellationSignal, ...tapeRun });
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
      disk = watchDisk(session.container, defaultAgentDiskBudgetBytes, (bytes) => diskStop.abort(new Error(`the agent wrote ${bytes} bytes, over the ${defaultAgentDiskBudgetBytes}-byte disk budget`)));
      const stopSignal = policyStop ? AbortSignal.any([policyStop, diskStop.signal]) : diskStop.signal;
      // A policy that never became ready fails the attempt at once (its fault is in the summary);
      // the untouched workspace is still collected and verified.
      const record = startFailure
        ? { exitCode: null, timedOut: false, transcript: `[the agent did not start: ${startFailure.message}]` }
        : await agent.run({
            session,
            task: { scenario: scenario.name, scenarioDir: scenario.dir, instruction: folder.instruction, workdir: '/app' },
            deadlineMs,
            onTick: () => context.heartbeat(),
            // The watchdog stops the agent like a cancellation would; what it wrote is verified.
            signal: AbortSignal.any([context.cancellationSignal, stopSignal]),
          });
      disk.stop();
      if (stopSignal.aborted) record.transcript += `\n[stopped: ${(stopSignal.reason as Error).message}]`;
      if (context.cancellationSignal.aborted) throw new CancelledFailure('runScenario cancelled');
      const wallMs = Math.round(performance.now() - started);
      // Partial outputs of an agent stopped at its deadline are still collected and verified.
      const collected =
        disk.breachBytes === undefined
          ? await collectAgentOutputs(session, scenario.agentOutputs, deps.maxAgentOutputBytes)
          : { archive: await packFiles([]), fileCount: 0, notes: [`outputs not collected: ${(diskStop.signal.reason as Error).message}`] };
      const outputs = await writeArtifact(path.join(dir, artifactNames.agentOutputs), collected.archive);
      const agentLog = await writeArtifact(path.join(dir, artifactNames.agentLog), record.transcript + (collected.notes.length ? `\n[outputs]\n${collected.notes.join('\n')}\n` : ''));
      const ownRecords = agent.records?.();
      const agentRecords = ownRecords ? await writeArtifact(path.join(dir, artifactNames.hermesRecords), ownRecords) : undefined;
      const summary = await environment.close();
      // The policy's sandbox killed from outside is neither the policy's doing nor the agent's: the
      // attempt fails as the infrastructure's (blame row `sandbox_killed`) and Temporal tries it again.
      if (summary?.sandboxLost) throw new Error(`the attempt lost its sandbox: ${summary.sandboxLost}`);
      const divergence = tape?.divergence();
      if (divergence) throw ApplicationFailure.create({ type: failureTypes.tapeDiverged, message: divergence.message, nonRetryable: true });
      return boundAgentRunResult({
        outcome: record.timedOut ? 'agent_timeout' : record.exitCode === 0 ? 'completed' : 'agent_error',
        exitCode: record.exitCode,
        wallMs,
        outputs,
        agentLog,
        agentRecords,
        outputNotes: collected.notes,
        policy: summary && {
          costUsd: summary.costUsd,
          costByModelUsd: summary.costByModelUsd,
          calls: summary.calls,
          agentRequests: summary.agentRequests,
          budgetRefusals: summary.budgetRefusals,
          upstreamFailures: summary.upstreamFailures,
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

  async function verifyScenario(request: { scenario: PreparedScenario; outputs: ArtifactRef; round?: number }): Promise<VerificationResult> {
    const context = Context.current();
    const { scenario } = request;
    const info = context.info;
    const dir = scenarioAttemptDir(workflowIdOf(info), scenario.name, 'verifier', info.attempt, request.round);
    const archive = await readVerified(request.outputs);
    const session = await ContainerSession.start(deps.docker, {
      image: scenario.imageTag,
      role: 'verifier',
      scenario: scenario.name,
      workflowId: workflowIdOf(info),
      cpus: scenario.cpus,
      memoryMb: scenario.memoryMb,
      owner: deps.owner,
    });
    try {
      const run = await runVerifier({
        session,
        scenarioDir: scenario.dir,
        outputsArchive: archive,
        timeoutSec: scenario.verifierTimeoutSec,
        onTick: () => context.heartbeat(),
        signal: context.cancellationSignal,
      }).catch(async (error: unknown) => {
        // The failed attempt keeps its log: retries and the UI can show why it failed.
        if (error instanceof VerifierFailure) await writeArtifact(path.join(dir, artifactNames.verifierLog), error.log);
        throw error;
      });
      if (context.cancellationSignal.aborted) throw new CancelledFailure('verifyScenario cancelled');
      const report = await writeArtifact(path.join(dir, run.counts.source === 'ctrf' ? artifactNames.ctrfReport : 'reward.txt'), run.reportText);
      const verifierLog = await writeArtifact(path.join(dir, artifactNames.verifierLog), run.log);
      return {
        testsPassed: run.counts.testsPassed,
        testsFailed: run.counts.testsFailed,
        testsTotal: run.counts.testsTotal,
        source: run.counts.source,
        report,
        verifierLog,
        wallMs: run.wallMs,
      };
    } finally {
      await session.remove();
    }
  }

  return { resolveScenarios, prepareScenario, runScenario, verifyScenario };
}

function workflowIdOf(info: { workflowExecution?: { workflowId: string } }): string {
  // Activities here are only ever scheduled by workflows; a standalone call is a programming error.
  if (!info.workflowExecution) throw new Error('scenario activities must run inside a workflow');
  return info.workflowExecution.workflowId;
}
