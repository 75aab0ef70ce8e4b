// Replaying recorded workflow histories against workflow code: the check to run before deploying
// new workflow code. Each run either replays cleanly or names the first event it broke on.
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Client, HistoryAndWorkflowId } from '@temporalio/client';

export interface ReplayOutcome {
  workflowId: string;
  runId: string;
  clean: boolean;
  /** Non-determinism (the code no longer makes the commands the history recorded), or another replay failure. */
  kind?: 'nondeterminism' | 'replay_error';
  /** The history event the replay broke on, when the SDK names it. */
  eventId?: number;
  message?: string;
}

/** The event id in a core SDK message, e.g. "… HistoryEvent(id: 11, …)" or "… event 11 …". */
export function brokenEventId(message: string): number | undefined {
  const match = /HistoryEvent\(\s*id:\s*(\d+)/.exec(message) ?? /\bevent(?:[ _]id)?[:#\s]+(\d+)/i.exec(message);
  return match ? Number(match[1]) : undefined;
}

export async function replayHistories(
  bundle: WorkflowBundleWithSourceMap,
  histories: AsyncIterable<HistoryAndWorkflowId> | Iterable<HistoryAndWorkflowId>,
): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  const runIds = new Map<string, string>();
  async function* remember() {
    for await (const entry of histories) {
      const history = entry.history as {
        events?:
          | { workflowExecutionStartedEventAttributes?: { originalExecutionRunId?: string | null } | null }[]
          | null;
      };
      runIds.set(
        entry.workflowId,
        history.events?.[0]?.workflowExecutionStartedEventAttributes?.originalExecutionRunId ?? '',
      );
      yield entry;
    }
  }
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle }, remember())) {
    const base = { workflowId: result.workflowId, runId: result.runId || runIds.get(result.workflowId) || '' };
    if (!result.error) {
      outcomes.push({ ...base, clean: true });
      continue;
    }
    const message = result.error.message;
    const kind =
      result.error.name === 'DeterminismViolationError' || /nondetermin/i.test(message)
        ? 'nondeterminism'
        : 'replay_error';
    outcomes.push({ ...base, clean: false, kind, eventId: brokenEventId(message), message });
  }
  return outcomes;
}

/** One run's history by workflow id (the latest run). */
export async function historyOf(client: Client, workflowId: string): Promise<HistoryAndWorkflowId> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return { workflowId, history };
}

/** Every closed run of a workflow type, optionally since a time. */
export function closedHistories(
  client: Client,
  options: { type: string; since?: Date },
): AsyncIterable<HistoryAndWorkflowId> {
  const clauses = [`WorkflowType = '${options.type.replace(/'/g, '')}'`, `ExecutionStatus != 'Running'`];
  if (options.since) clauses.push(`StartTime >= '${options.since.toISOString()}'`);
  return client.workflow.list({ query: clauses.join(' AND ') }).intoHistories();
}
