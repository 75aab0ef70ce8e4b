// verifyScenario: the hidden tests run in a fresh verifier container on the agent's declared outputs
// (or its snapshot), with no network, or a network whose only reachable port replays the scenario's
// registry tape; within a test run, outputs already verified reuse their result (verifier-cache.ts). A host runs
// its verifiers on the cores they declare, never more at once than its cores hold (common/core-gate.ts).
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { ArtifactRef } from '../contracts/artifact.ts';
import type { PreparedScenario, VerificationResult } from '../contracts/results.ts';
import { sandboxActivityAttempts } from '../contracts/temporal-names.ts';
import { artifactNames, scenarioAttemptDir } from '../common/data-layout.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { watchContainerCores } from '../sandbox/container-usage.ts';
import { removeSnapshot } from '../sandbox/agent-snapshot.ts';
import { runVerifier, VerifierFailure, type VerifierRun } from '../verifiers/run-verifier.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { readVerified } from './pack-policy.ts';
import { workflowIdOf, type ActivityDependencies } from './activity-context.ts';
import { recordVerifierRun } from '../common/metrics.ts';
import { log } from '../common/log.ts';
import { ensureRegistryTape, envTable, openTapeNetwork, replayLogLines, type TapeScenario } from './registry-tape.ts';

export function createVerifyScenario(deps: ActivityDependencies) {
  return async function verifyScenario(request: {
    scenario: PreparedScenario;
    outputs: ArtifactRef;
    snapshotImage?: string;
    round?: number;
  }): Promise<VerificationResult> {
    const context = Context.current();
    const { scenario } = request;
    const info = context.info;
    const dir = scenarioAttemptDir(workflowIdOf(info), scenario.name, 'verifier', info.attempt, request.round);
    const archive = await readVerified(request.outputs);
    const verifierEnv = envTable(scenario.verifierEnv);
    // A test run's cache (verifiers/verifier-cache.ts): a verification of outputs already verified reuses the result.
    // A snapshot's contents have no hash here, so it always runs.
    const cacheKey =
      deps.verifierCache && !request.snapshotImage
        ? await deps.verifierCache.keyOf({
            outputsSha256: request.outputs.sha256,
            scenarioDir: scenario.dir,
            image: scenario.imageTag,
            timeoutSec: scenario.verifierTimeoutSec,
            declaredTests: scenario.testsDeclared,
            user: scenario.verifierUser,
            workdir: scenario.workdir,
            env: verifierEnv,
          })
        : undefined;
    const cached = cacheKey ? await deps.verifierCache!.get(cacheKey) : undefined;
    if (cached) {
      log.info('verifier_result_reused', { scenario: scenario.name, outputs: request.outputs.sha256.slice(0, 12) });
      return verificationResult(cached, dir);
    }
    // No network, or a network whose only reachable port replays the scenario's registry tape (rehearsed first if this
    // image has none: once per image, mostly a wait on the registries, so before the cores are taken).
    const plan = await ensureRegistryTape(deps, tapeScenarioOf(scenario), workflowIdOf(info));
    // The host's cores, as many as the verifier declares (common/core-gate.ts says why); waiting heartbeats like the rest.
    const cores = await deps.sandboxHost?.verifierCores.acquire(scenario.cpus, context.cancellationSignal);
    if (cores && cores.waitedMs >= 1000)
      log.info('verifier_waited_for_cores', { scenario: scenario.name, waitedMs: Math.round(cores.waitedMs) });
    try {
      return await verifyInContainer();
    } finally {
      cores?.release();
    }

    async function verifyInContainer(): Promise<VerificationResult> {
      const tape = plan ? await openTapeNetwork(deps, 'replay', plan.dir, workflowIdOf(info)) : undefined;
      let session: ContainerSession;
      try {
        session = await ContainerSession.start(deps.docker, {
          image: request.snapshotImage ?? scenario.imageTag,
          role: 'verifier',
          scenario: scenario.name,
          workflowId: workflowIdOf(info),
          cpus: scenario.cpus,
          memoryMb: scenario.memoryMb,
          owner: deps.owner,
          env: scenario.containerEnv,
          ...(tape ? { networkMode: tape.networkName } : {}),
        });
      } catch (error) {
        await tape?.close();
        throw error;
      }
      // What the verifier really uses, so a run sitting out a timeout lends the rest of its cores (common/core-gate.ts).
      const watch = cores ? watchContainerCores(session.id, cores.measured) : undefined;
      const closeTape = async () => (tape ? `\n${replayLogLines(await tape.close())}` : '');
      // A verifier that failed without a report is retried (contracts/blame.ts): its next attempt needs the snapshot.
      let retriedAfter = false;
      try {
        if (tape) await tape.install(session);
        const run = await runVerifier({
          session,
          scenarioDir: scenario.dir,
          // A snapshot holds everything the agent left; declared outputs are copied into a fresh image.
          ...(request.snapshotImage ? {} : { outputsArchive: archive }),
          timeoutSec: scenario.verifierTimeoutSec,
          declaredTests: scenario.testsDeclared,
          ...(scenario.verifierUser ? { user: scenario.verifierUser } : {}),
          ...(scenario.workdir ? { workdir: scenario.workdir } : {}),
          env: { ...verifierEnv, ...tape?.env },
          ...(plan?.rewrittenTests ? { rewrittenTests: plan.rewrittenTests } : {}),
          signal: context.cancellationSignal,
        }).catch(async (error: unknown) => {
          // The failed attempt keeps its log: retries and the UI can show why it failed.
          if (error instanceof VerifierFailure) {
            await writeArtifact(path.join(dir, artifactNames.verifierLog), error.log + (await closeTape()));
            retriedAfter = info.attempt < sandboxActivityAttempts;
          }
          throw error;
        });
        run.log += await closeTape();
        if (context.cancellationSignal.aborted) throw new CancelledFailure('verifyScenario cancelled');
        recordVerifierRun(run.wallMs);
        if (cacheKey) await deps.verifierCache!.put(cacheKey, run);
        return await verificationResult(run, dir);
      } finally {
        watch?.stop();
        await session.remove();
        await tape?.close().catch(() => undefined);
        // The snapshot served its verification, unless a retry of this one follows (a verifier that failed without a
        // report: before, the retry found the image gone and the scenario ended infra_error on a 404); the last attempt
        // removes it whatever happens, and one a dead worker left is removed by orphan cleanup.
        if (request.snapshotImage && !retriedAfter)
          await removeSnapshot(deps.docker, request.snapshotImage).catch(() => undefined);
      }
    }
  };
}

/** A verifier run's report and log written as the attempt's artifacts, and its counts. */
async function verificationResult(run: VerifierRun, dir: string): Promise<VerificationResult> {
  const report = await writeArtifact(
    path.join(dir, run.reportName === 'ctrf.json' ? artifactNames.ctrfReport : run.reportName),
    run.reportText,
  );
  const verifierLog = await writeArtifact(path.join(dir, artifactNames.verifierLog), run.log);
  return {
    testsPassed: run.counts.testsPassed,
    testsFailed: run.counts.testsFailed,
    testsTotal: run.counts.testsTotal,
    source: run.counts.source,
    ...(run.counts.reward !== undefined ? { reward: run.counts.reward } : {}),
    report,
    verifierLog,
    wallMs: run.wallMs,
    ...(run.notes.length ? { notes: run.notes } : {}),
  };
}

function tapeScenarioOf(scenario: PreparedScenario): TapeScenario {
  return {
    name: scenario.name,
    dir: scenario.dir,
    imageTag: scenario.imageTag,
    ...(scenario.contentHash ? { contentHash: scenario.contentHash } : {}),
    cpus: scenario.cpus,
    memoryMb: scenario.memoryMb,
    containerEnv: scenario.containerEnv ?? [],
    ...(scenario.verifierUser ? { verifierUser: scenario.verifierUser } : {}),
    verifierEnv: scenario.verifierEnv ?? [],
    verifierTimeoutSec: scenario.verifierTimeoutSec,
    ...(scenario.testsDeclared !== undefined ? { testsDeclared: scenario.testsDeclared } : {}),
  };
}
