// `trl runs`: evaluations from Temporal visibility, newest first: id, when, pack, hotkey, status,
// tests and cost (the last two from the memo the workflow writes when it finishes).
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { searchAttributes } from '../../contracts/temporal-names.ts';
import { renderTable } from '../render-table.ts';
import { shortHash, shortHotkey } from '../chain-view.ts';
import { connectTemporal } from '../temporal-connection.ts';
import { UsageError } from '../usage-error.ts';

export interface RunsOptions {
  status?: string;
  hotkey?: string;
  pack?: string;
  since?: string;
  limit: number;
  json: boolean;
}

export interface RunRow {
  workflowId: string;
  startedAt: string;
  packHash?: string;
  hotkey?: string;
  status: string;
  testsPassed?: number;
  testsTotal?: number;
  costUsd?: number;
  rerunOf?: string;
}

const quote = (value: string) => `'${value.replace(/['\\]/g, '')}'`;

/** The visibility query for the filters; every value is quoted, never spliced raw. */
export function runsQuery(options: Omit<RunsOptions, 'limit' | 'json'>): string {
  const clauses = [`WorkflowType = 'evaluateSubmission'`];
  if (options.status) clauses.push(`${searchAttributes.status.name} = ${quote(options.status)}`);
  if (options.hotkey) clauses.push(`${searchAttributes.hotkey.name} = ${quote(options.hotkey)}`);
  if (options.pack)
    clauses.push(
      options.pack.length === 64
        ? `${searchAttributes.packHash.name} = ${quote(options.pack)}`
        : `${searchAttributes.packHash.name} STARTS_WITH ${quote(options.pack)}`,
    );
  if (options.since) {
    const since = new Date(options.since);
    if (Number.isNaN(since.getTime()))
      throw new UsageError(`--since must be a date, e.g. 2026-12-01; got "${options.since}"`);
    clauses.push(`StartTime >= '${since.toISOString()}'`);
  }
  return clauses.join(' AND ');
}

function rowOf(execution: WorkflowExecutionInfo): RunRow {
  const attributes = execution.typedSearchAttributes;
  const memo = (execution.memo ?? {}) as {
    result?: { status?: string; testsPassed?: number; testsTotal?: number; costUsd?: number };
    submission?: { hotkey?: string };
  };
  const running = execution.status.name === 'RUNNING';
  return {
    workflowId: execution.workflowId,
    startedAt: execution.startTime.toISOString(),
    packHash: attributes.get(searchAttributes.packHash),
    hotkey: attributes.get(searchAttributes.hotkey) ?? memo.submission?.hotkey,
    // A run that died before it could write its status keeps Temporal's own (FAILED, TERMINATED, …).
    status:
      memo.result?.status ??
      (running ? (attributes.get(searchAttributes.status) ?? 'running') : execution.status.name.toLowerCase()),
    testsPassed: memo.result?.testsPassed,
    testsTotal: memo.result?.testsTotal,
    costUsd: memo.result?.costUsd,
    rerunOf: attributes.get(searchAttributes.rerunOf),
  };
}

export async function listRuns(
  client: Awaited<ReturnType<typeof connectTemporal>>['client'],
  options: RunsOptions,
): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for await (const execution of client.workflow.list({
    query: runsQuery(options),
    pageSize: Math.min(options.limit, 1000),
  })) {
    rows.push(rowOf(execution));
    if (rows.length >= options.limit) break;
  }
  return rows;
}

export function renderRuns(rows: RunRow[]): string {
  if (!rows.length) return 'no evaluations match';
  return renderTable<RunRow>(
    [
      { header: 'workflow id', value: (r) => r.workflowId },
      { header: 'started', value: (r) => r.startedAt.replace(/\.\d+Z$/, 'Z') },
      { header: 'pack', value: (r) => (r.packHash ? shortHash(r.packHash) : '—') },
      { header: 'hotkey', value: (r) => (r.hotkey ? shortHotkey(r.hotkey) : '—') },
      { header: 'status', value: (r) => r.status },
      {
        header: 'tests',
        value: (r) => (r.testsTotal !== undefined ? `${r.testsPassed}/${r.testsTotal}` : '—'),
        align: 'right',
      },
      { header: 'cost $', value: (r) => (r.costUsd !== undefined ? r.costUsd.toFixed(4) : '—'), align: 'right' },
      { header: 'rerun of', value: (r) => r.rerunOf ?? '' },
    ],
    rows,
  );
}

export async function runsCommand(options: RunsOptions): Promise<number> {
  const query = runsQuery(options);
  const { client, connection } = await connectTemporal();
  try {
    const rows = await listRuns(client, options);
    process.stdout.write((options.json ? JSON.stringify(rows, null, 2) : renderRuns(rows)) + '\n');
    if (!options.json && rows.length === options.limit)
      process.stderr.write(`trl: the newest ${options.limit}; --limit N shows more (query: ${query})\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
