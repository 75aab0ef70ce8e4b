// `trl replay <workflow-id>` / `trl replay --all`: replay recorded histories against the current
// workflow code (or --workflows FILE). Exit 0 when all replay cleanly, 1 on non-determinism, 64 on bad input.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { WorkflowNotFoundError } from '@temporalio/client';
import { bundleWorkflows, workflowsPath } from '../../workers/create-worker.ts';
import { installQuietRuntime } from '../../workers/quiet-runtime.ts';
import { closedHistories, historyOf, replayHistories, type ReplayOutcome } from '../client/replay-runs.ts';
import { connectTemporal } from '../temporal-connection.ts';
import { UsageError } from '../usage-error.ts';

export interface ReplayOptions {
  workflowId?: string;
  all: boolean;
  since?: string;
  type: string;
  workflows?: string;
  json: boolean;
}

export function describeOutcome(outcome: ReplayOutcome): string {
  if (outcome.clean) return `${outcome.workflowId}: replays cleanly`;
  const where = outcome.eventId !== undefined ? ` at event ${outcome.eventId}` : '';
  const what = outcome.kind === 'nondeterminism' ? 'non-deterministic' : 'replay failed';
  return `${outcome.workflowId}: ${what}${where}\n  ${(outcome.message ?? '').split('\n').slice(0, 6).join('\n  ')}`;
}

export async function replayCommand(options: ReplayOptions): Promise<number> {
  if (options.all === Boolean(options.workflowId))
    throw new UsageError(
      'trl replay needs a workflow id or --all, e.g. trl replay evaluate-local-20261201T101500-abc123',
    );
  let since: Date | undefined;
  if (options.since !== undefined) {
    if (!options.all) throw new UsageError('--since goes with --all');
    since = new Date(options.since);
    if (Number.isNaN(since.getTime()))
      throw new UsageError(`--since must be a date, e.g. 2026-12-01 or 2026-12-01T10:00:00Z; got "${options.since}"`);
  }
  const code = options.workflows ? path.resolve(options.workflows) : workflowsPath;
  if (!existsSync(code)) throw new UsageError(`--workflows: no such file ${code}`);

  // The replay worker's own warning repeats what the outcome says; keep stderr for real trouble.
  process.env.TRL_LOG_LEVEL ??= 'error';
  installQuietRuntime();
  const { client, connection } = await connectTemporal();
  try {
    let histories;
    if (options.workflowId) {
      try {
        histories = [await historyOf(client, options.workflowId)];
      } catch (error) {
        if (error instanceof WorkflowNotFoundError || (error as { code?: number }).code === 5)
          throw new UsageError(`no workflow "${options.workflowId}" in Temporal; \`trl runs\` lists evaluations`);
        throw error;
      }
    } else {
      histories = closedHistories(client, { type: options.type, since });
    }
    const bundle = await bundleWorkflows(code);
    const outcomes = await replayHistories(bundle, histories);
    if (options.json) {
      process.stdout.write(JSON.stringify(outcomes, null, 2) + '\n');
    } else {
      for (const outcome of outcomes) process.stdout.write(describeOutcome(outcome) + '\n');
      if (options.all) {
        const broken = outcomes.filter((o) => !o.clean).length;
        process.stdout.write(
          `${outcomes.length} run(s) of ${options.type}${since ? ` since ${since.toISOString()}` : ''}: ${outcomes.length - broken} clean, ${broken} not\n`,
        );
      }
    }
    return outcomes.every((o) => o.clean) ? 0 : 1;
  } finally {
    await connection.close();
  }
}
