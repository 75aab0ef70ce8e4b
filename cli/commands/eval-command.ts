// `trl eval <pack>`: bootstrap, make sure a worker serves the queue, run one evaluation with a
// progress bar, then print the per-scenario table and totals (or the JSON result).
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { createDockerClient } from '../../sandbox/docker-client.ts';
import { bootstrap } from '../../infra/bootstrap.ts';
import { evaluationTaskQueue } from '../../contracts/temporal-names.ts';
import { workerPidFile } from '../../common/data-layout.ts';
import { submissionSchema, type SubmissionInput } from '../../contracts/submission.ts';
import type { ArtifactRef } from '../../contracts/artifact.ts';
import { loadEvaluationResult } from './show-command.ts';
import { agentNameSchema } from '../../contracts/agent-kinds.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { selectScenarios } from '../../catalog/list-scenarios.ts';
import { assertNewEvaluation, startEvaluation, workflowUiUrl } from '../client/start-evaluation.ts';
import { startHostedWorker } from '../../workers/hosted-worker.ts';
import { handleSignalsInProcess } from '../../workers/quiet-runtime.ts';
import { progressQuery } from '../../contracts/progress.ts';
import { ProgressView } from '../progress-view.ts';
import { renderEvaluation } from '../result-view.ts';
import { UsageError } from '../usage-error.ts';
import { liveWorkerPid } from '../worker-pid.ts';
import { temporalConnectionOptions } from '../../infra/temporal-connection-options.ts';

export interface EvalOptions {
  pack: string;
  scenarios: string[];
  scenariosDir?: string;
  agent: string;
  seed: number;
  json: boolean;
  /** The submission id (default: local-<time>-<random>); an id that already ran is refused, naming `trl rerun`. */
  id?: string;
  /** A recorded run (workflow id) whose model calls answer instead of the upstream, at $0. */
  tape?: string;
  /** --upstream: applied to this process's environment already (cli/upstream-option.ts); checked here against a
   * worker of `trl up`, which keeps the upstream it started with. */
  upstream?: string;
}

/** Each scenario's model-call log of a recorded run, for `--tape`; scenarios of the run by default. */
export async function tapeOf(
  workflowId: string,
  scenarios: string[],
): Promise<{ tape: NonNullable<SubmissionInput['tape']>; scenarios: string[] }> {
  const { result } = await loadEvaluationResult(workflowId);
  const callLogs: Record<string, ArtifactRef> = {};
  for (const scenario of result.perScenario)
    if (scenario.artifacts.modelCallLog) callLogs[scenario.name] = scenario.artifacts.modelCallLog;
  const chosen = scenarios.length ? scenarios : Object.keys(callLogs);
  // Never an empty list: that would mean the whole active set, none of it on the tape.
  if (chosen.length === 0)
    throw new UsageError(
      `--tape ${workflowId} recorded no model call (agent ${result.agent}); record a run with a policy-driven agent (hermes, loop)`,
    );
  const missing = chosen.filter((name) => !callLogs[name]);
  if (missing.length)
    throw new UsageError(
      `--tape ${workflowId} has no model-call log for ${missing.join(', ')}; recorded: ${Object.keys(callLogs).join(', ') || 'none (its agent made no model call)'}`,
    );
  return { tape: { of: workflowId, callLogs }, scenarios: chosen };
}

export async function evalCommand(options: EvalOptions): Promise<number> {
  const agent = agentNameSchema.safeParse(options.agent);
  if (!agent.success)
    throw new UsageError(`--agent must be one of ${agentNameSchema.options.join(', ')}; got "${options.agent}"`);
  // Fail fast on names that do not exist, before anything starts.
  await selectScenarios(options.scenarios, options.scenariosDir);
  if (options.id !== undefined) {
    const id = submissionSchema.shape.submissionId.safeParse(options.id);
    if (!id.success) throw new UsageError(`--id: ${id.error.issues[0]?.message ?? 'not a valid submission id'}`);
  }

  if (options.upstream !== undefined && liveWorkerPid(workerPidFile))
    throw new UsageError(
      `--upstream ${options.upstream}: a worker of \`trl up\` serves the queue with its own upstream; stop it, or start it with \`trl up --upstream ${options.upstream}\``,
    );
  const submissionId =
    options.id ??
    `local-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
  const taped = options.tape ? await tapeOf(options.tape, options.scenarios) : undefined;
  const input: SubmissionInput = {
    submissionId,
    pack: { kind: 'directory', path: path.resolve(options.pack) },
    agent: agent.data,
    scenarios: taped?.scenarios ?? options.scenarios,
    ...(taped ? { tape: taped.tape } : {}),
    scenariosDir: options.scenariosDir ? path.resolve(options.scenariosDir) : undefined,
    seed: options.seed,
  };
  return runEvaluation(input, { json: options.json, label: options.pack });
}

/** Starts one evaluation (hosting a worker when `trl up` is not running), shows progress, prints the result. */
export async function runEvaluation(
  input: SubmissionInput,
  options: { json: boolean; label: string; after?: (result: EvaluationResult) => string },
): Promise<number> {
  const docker = createDockerClient();
  const stack = await bootstrap(docker);
  const { temporal } = stack;
  const connection = await Connection.connect(temporalConnectionOptions(temporal.address));
  const client = new Client({ connection, namespace: temporal.namespace });

  try {
    await assertNewEvaluation(client, input.submissionId);
  } catch (error) {
    await connection.close();
    throw error;
  }
  // A worker started by `trl up` serves the queue; otherwise this command hosts one for the run.
  let ownWorker: { shutdown: () => void; done: Promise<void> } | undefined;
  if (!liveWorkerPid(workerPidFile)) {
    handleSignalsInProcess();
    const hosted = await startHostedWorker({ docker, stack, taskQueue: evaluationTaskQueue });
    ownWorker = { shutdown: () => hosted.shutdown(), done: hosted.run() };
  }

  let handle;
  try {
    handle = await startEvaluation(client, input);
  } catch (error) {
    ownWorker?.shutdown();
    await ownWorker?.done;
    await connection.close();
    throw error;
  }
  const uiLink = workflowUiUrl(temporal.uiUrl, temporal.namespace, handle.workflowId);
  if (!options.json)
    process.stderr.write(`trl: evaluating ${options.label} as ${handle.workflowId}\ntrl: watch it at ${uiLink}\n`);

  const view = options.json ? undefined : new ProgressView();
  const poll = setInterval(() => {
    handle.query(progressQuery).then(
      (p) => view?.update(p),
      () => undefined,
    );
  }, 1000);
  // Interrupted with its own worker, the run could only wait on the shared queue for the next
  // `trl eval` to pick it up beside its own: it is cancelled (its activities stop and remove their
  // containers; TrlStatus says `cancelled`). A run `trl up` serves goes on; the UI still shows it.
  let interrupted = false;
  const onInterrupt = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    if (!ownWorker) {
      process.stderr.write(`\ntrl: ${signal}: ${handle.workflowId} goes on under trl up's worker (${uiLink})\n`);
      process.exit(130);
    }
    process.stderr.write(`\ntrl: ${signal}: cancelling ${handle.workflowId} (a second ${signal} exits at once)\n`);
    handle.cancel().catch(() => undefined);
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  let result: EvaluationResult | undefined;
  try {
    result = await handle.result().catch((error: unknown) => {
      if (interrupted) return undefined;
      throw error;
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    clearInterval(poll);
    view?.finish();
    if (ownWorker) {
      ownWorker.shutdown();
      await ownWorker.done;
    }
    await connection.close();
  }
  if (!result) {
    process.stderr.write(`trl: ${handle.workflowId} cancelled\n`);
    return 130;
  }

  if (options.json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } else {
    process.stdout.write(renderEvaluation(result) + '\n\n');
    if (options.after) process.stdout.write(options.after(result) + '\n');
    process.stdout.write(`result: ${result.resultFile?.path ?? '(none)'}\nTemporal UI: ${uiLink}\n`);
  }
  return evaluationExitCode(result);
}

/** 0 completed, 2 rejected, 3 incomplete; 64 (bad input) when no scenario could run because every task is invalid. */
export function evaluationExitCode(result: EvaluationResult): number {
  if (result.perScenario.length > 0 && result.perScenario.every((s) => s.status === 'task_invalid')) return 64;
  return result.status === 'completed' ? 0 : result.status === 'rejected' ? 2 : 3;
}
