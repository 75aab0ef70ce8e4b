// `trl seat`: who holds the seat, what is being evaluated, what is queued, the recent decisions,
// and when the next cycle runs.
import { ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { readChainConfig } from '../../chain/chain-config.ts';
import { seatCycleScheduleId, seatWorkflowId } from '../../contracts/temporal-names.ts';
import { seatQuery } from '../../contracts/seat-signals.ts';
import type { SeatRecord, SeatView } from '../../contracts/seat.ts';
import { renderTable } from '../render-table.ts';
import { shortHash, shortHotkey } from '../chain-view.ts';
import { connectTemporal } from '../temporal-connection.ts';
import { scenariosWaitingForHost, type HostWait } from '../host-waits.ts';

function describeSeat(view: SeatView): string {
  const lines: string[] = [];
  const seated = view.incumbent;
  lines.push(
    seated
      ? `subnet ${view.netuid}: seat held by ${seated.hotkey}\n  pack ${seated.packHash}\n  since ${seated.seatedAt}, ${seated.seatedTestsPassed}/${seated.seatedTestsTotal} tests when seated${seated.lastTestsPassed !== undefined ? `, ${seated.lastTestsPassed} at its latest re-evaluation` : ''}`
      : `subnet ${view.netuid}: the seat is empty`,
  );
  lines.push(
    view.current
      ? `evaluating now: ${shortHash(view.current.packHash)} from ${shortHotkey(view.current.hotkey)}`
      : 'evaluating now: nothing',
  );
  lines.push(
    `queued: ${view.queue.length}${
      view.queue.length
        ? ` (${view.queue
            .slice(0, 5)
            .map((c) => shortHash(c.packHash))
            .join(', ')}${view.queue.length > 5 ? ', …' : ''})`
        : ''
    }`,
  );
  lines.push(
    `agent ${view.config.agent}, ${view.config.scenarios.length || 'all active'} scenarios, ${view.config.repeats} repeat(s) per side, ${view.config.bootstrapResamples} bootstrap resamples, ${Number(((view.config.confidence ?? 0.95) * 100).toFixed(2))}% lower bound`,
  );
  if (view.pendingConfig) {
    const next = view.pendingConfig;
    lines.push(
      `new settings from the next challenge: agent ${next.agent}, ${next.scenarios.length || 'all active'} scenarios, ${next.repeats} repeat(s), ${Number((next.confidence * 100).toFixed(2))}% lower bound`,
    );
  }
  if (view.history.length) {
    lines.push(
      '',
      renderTable<SeatRecord>(
        [
          { header: '#', value: (r) => r.number, align: 'right' },
          { header: 'decided', value: (r) => r.decidedAt.replace(/\.\d+Z$/, 'Z') },
          { header: 'challenger', value: (r) => shortHash(r.packHash) },
          { header: 'hotkey', value: (r) => shortHotkey(r.hotkey) },
          { header: 'C', value: (r) => r.challengerTotal ?? '—', align: 'right' },
          { header: 'I', value: (r) => r.incumbentTotal ?? '—', align: 'right' },
          { header: 'outcome', value: (r) => r.outcome },
          {
            header: 'spec manifest',
            value: (r) => (r.evidence?.manifestHash ? shortHash(r.evidence.manifestHash) : '—'),
          },
          { header: 'reason', value: (r) => (r.reason.length > 90 ? `${r.reason.slice(0, 89)}…` : r.reason) },
        ],
        view.history.slice(-10),
      ),
    );
    const last = view.history.at(-1);
    if (last?.evidence) lines.push(`evidence of #${last.number}: ${last.evidence.path}`);
  }
  return lines.join('\n');
}

/** The scenarios waiting for a sandbox host and the host's reason, one row each (nothing when none waits). */
export function describeHostWaits(waits: HostWait[]): string {
  if (waits.length === 0) return '';
  return `\nwaiting for a sandbox host: ${waits.length}\n${renderTable<HostWait>(
    [
      { header: 'evaluation', value: (w) => w.workflowId },
      { header: 'scenario', value: (w) => w.scenario },
      { header: 'tries', value: (w) => w.attempt, align: 'right' },
      { header: 'why', value: (w) => w.reason },
    ],
    waits,
  )}\n\n`;
}

export async function seatCommand(options: { json: boolean }): Promise<number> {
  const config = readChainConfig();
  const { client, connection } = await connectTemporal();
  try {
    let view: SeatView;
    try {
      view = await client.workflow.getHandle(seatWorkflowId(config.TRL_NETUID)).query(seatQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) {
        process.stderr.write(
          `trl: no seat yet on subnet ${config.TRL_NETUID}; the first cycle of \`trl up\` creates it\n`,
        );
        return 1;
      }
      throw error;
    }
    let nextCycle: string | undefined;
    let lastWeights: string | undefined;
    try {
      const schedule = await client.schedule.getHandle(seatCycleScheduleId(config.TRL_NETUID)).describe();
      nextCycle = schedule.info.nextActionTimes[0]?.toISOString();
      // The latest cycle's weights (the winner's, or the fallback's and why), from its memo.
      const latest = schedule.info.recentActions.at(-1)?.action.workflow;
      if (latest) {
        const memo = (
          await client.workflow
            .getHandle(latest.workflowId, latest.firstExecutionRunId)
            .describe()
            .catch(() => undefined)
        )?.memo;
        if (typeof memo?.weights === 'string') lastWeights = memo.weights;
      }
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
    const waitingForHost = await scenariosWaitingForHost(client);
    if (options.json)
      process.stdout.write(JSON.stringify({ ...view, nextCycle, lastWeights, waitingForHost }, null, 2) + '\n');
    else
      process.stdout.write(
        `${describeSeat(view)}\n${describeHostWaits(waitingForHost)}weights at the last cycle: ${lastWeights ?? 'no cycle has run yet'}\nnext cycle: ${nextCycle ?? 'no schedule (start `trl up`)'}\n`,
      );
    return 0;
  } finally {
    await connection.close();
  }
}
