// Benchmark: what Temporal itself costs the pipeline, on a dev server of its own (the project's
// CLI and flags, SQLite in a file, UI off) and a worker set up as the project's (bundle once,
// quiet runtime, the same identity style and shutdown grace). Latencies come from the workflow
// histories (server event times, one clock), except the client's start → result wall time.
// node --import tsx bench/temporal.ts [--port 7433] [--activities 200] [--workflows 100] [--concurrency 8]
// [--in-memory]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { openSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { eventMs, type HistoryEvent } from './workflow-history.ts';
import { ensureTemporalCli } from '../infra/temporal-cli.ts';
import { probeFrontend } from '../infra/temporal-server.ts';
import { defaultNamespace } from '../contracts/temporal-names.ts';
import { bundleWorkflows } from '../workers/create-worker.ts';
import { installQuietRuntime } from '../workers/quiet-runtime.ts';
import { renderTable } from '../cli/render-table.ts';
import { uniqueId } from '../test/support/evaluation-harness.ts';
import { summarize, type LatencySummary } from './latency-stats.ts';
import type { BenchActivities } from './temporal-bench-workflows.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '7433' },
    activities: { type: 'string', default: '200' },
    workflows: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '8' },
    // The dev server's in-memory SQLite: what persistence costs, beside the project's file.
    'in-memory': { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
const activityCount = Number(values.activities);
const workflowCount = Number(values.workflows);
const concurrency = Number(values.concurrency);
const address = `127.0.0.1:${port}`;
const readinessTimeoutMs = 60_000;

async function historyOf(handle: WorkflowHandle): Promise<HistoryEvent[]> {
  return (await handle.fetchHistory()).events ?? [];
}

/** Scheduled → started per activity, from the history's event times. */
function scheduleToStartMs(events: HistoryEvent[]): number[] {
  const scheduledAt = new Map<string, number>();
  const samples: number[] = [];
  for (const event of events) {
    if (event.activityTaskScheduledEventAttributes) scheduledAt.set(String(event.eventId), eventMs(event));
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const scheduled = scheduledAt.get(String(started.scheduledEventId));
      if (scheduled === undefined)
        throw new Error(`activity started event ${String(event.eventId)} has no scheduled event`);
      samples.push(eventMs(event) - scheduled);
    }
  }
  return samples;
}

/** One scheduled activity to the next in a one-lane sequence: the full cost of an activity step. */
function scheduleToNextScheduleMs(events: HistoryEvent[]): number[] {
  const times = events.filter((event) => event.activityTaskScheduledEventAttributes).map(eventMs);
  return times.slice(1).map((time, index) => time - times[index]!);
}

function firstEventMs(events: HistoryEvent[], has: (event: HistoryEvent) => unknown): number {
  const found = events.find((event) => has(event));
  if (!found) throw new Error('history lacks an expected event');
  return eventMs(found);
}

async function startServer(binary: string, dbFile: string, logFile: string): Promise<ChildProcess> {
  if (await probeFrontend(address))
    throw new Error(`something already answers on ${address}; pass --port with a free port`);
  const logFd = openSync(logFile, 'a');
  const child = spawn(
    binary,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--headless',
      ...(values['in-memory'] ? [] : ['--db-filename', dbFile]),
      '--namespace',
      defaultNamespace,
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  const deadline = performance.now() + readinessTimeoutMs;
  while (performance.now() < deadline) {
    if (exited !== null) throw new Error(`the bench's Temporal dev server exited with ${exited}; see ${logFile}`);
    if (await probeFrontend(address)) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(
    `the bench's Temporal dev server did not answer on ${address} within ${readinessTimeoutMs / 1000}s; see ${logFile}`,
  );
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs `count` jobs with at most `limit` in flight. */
async function inParallel(count: number, limit: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
}

interface Row {
  measure: string;
  summary: LatencySummary;
}

const workDir = await mkdtemp(path.join(os.tmpdir(), 'trl-bench-temporal-'));
const binary = await ensureTemporalCli();
const server = await startServer(binary, path.join(workDir, 'temporal.db'), path.join(workDir, 'server.log'));
const rows: Row[] = [];
let throughputLine = '';
try {
  installQuietRuntime();
  const bundleStarted = performance.now();
  const workflowBundle = await bundleWorkflows(path.join(import.meta.dirname, 'temporal-bench-workflows.ts'));
  const bundleMs = performance.now() - bundleStarted;
  const taskQueue = uniqueId('trl-bench-temporal');
  const workerConnection = await NativeConnection.connect({ address });
  const activities: BenchActivities = { noop: async () => undefined };
  const worker = await Worker.create({
    connection: workerConnection,
    namespace: defaultNamespace,
    taskQueue,
    workflowBundle,
    activities,
    identity: `trl-bench@${process.pid}`,
    // Enough slots for every lane: the bench measures Temporal, not a worker that is full.
    maxConcurrentActivityTaskExecutions: Math.max(concurrency, 4),
    shutdownGraceTime: '10 seconds',
  });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace: defaultNamespace });
  const start = (workflowType: string, args: unknown[] = []) =>
    client.workflow.start(workflowType, { taskQueue, workflowId: uniqueId(`bench-${workflowType}`), args });

  await worker.runUntil(async () => {
    // Warm-up: pollers, the connection and the bundle's first isolate, not measured.
    for (let index = 0; index < 5; index += 1) await (await start('oneActivity')).result();

    const sequential = await start('noopActivities', [activityCount, 1]);
    await sequential.result();
    const sequentialEvents = await historyOf(sequential);
    rows.push({
      measure: 'activity schedule-to-start, sequential',
      summary: summarize(scheduleToStartMs(sequentialEvents)),
    });
    rows.push({
      measure: 'activity step, sequential (scheduled → next scheduled)',
      summary: summarize(scheduleToNextScheduleMs(sequentialEvents)),
    });

    const laned = await start('noopActivities', [activityCount, concurrency]);
    await laned.result();
    rows.push({
      measure: `activity schedule-to-start, ${concurrency} lanes in one workflow`,
      summary: summarize(scheduleToStartMs(await historyOf(laned))),
    });

    const startToActivity: number[] = [];
    const startToWorkflowTask: number[] = [];
    for (let index = 0; index < workflowCount; index += 1) {
      const handle = await start('oneActivity');
      await handle.result();
      const events = await historyOf(handle);
      const startedAt = firstEventMs(events, (event) => event.workflowExecutionStartedEventAttributes);
      startToWorkflowTask.push(firstEventMs(events, (event) => event.workflowTaskStartedEventAttributes) - startedAt);
      startToActivity.push(firstEventMs(events, (event) => event.activityTaskStartedEventAttributes) - startedAt);
    }
    rows.push({ measure: 'workflow start → first workflow task started', summary: summarize(startToWorkflowTask) });
    rows.push({ measure: 'workflow start → first activity started', summary: summarize(startToActivity) });

    const clientWall: number[] = [];
    const serverWall: number[] = [];
    for (let index = 0; index < workflowCount; index += 1) {
      const started = performance.now();
      const handle = await start('trivial');
      await handle.result();
      clientWall.push(performance.now() - started);
      const events = await historyOf(handle);
      serverWall.push(
        firstEventMs(events, (event) => event.workflowExecutionCompletedEventAttributes) -
          firstEventMs(events, (event) => event.workflowExecutionStartedEventAttributes),
      );
    }
    rows.push({ measure: 'trivial workflow, client start → result', summary: summarize(clientWall) });
    rows.push({ measure: 'trivial workflow, server started → completed', summary: summarize(serverWall) });

    const concurrentWall: number[] = [];
    const burstStarted = performance.now();
    await inParallel(workflowCount, concurrency, async () => {
      const started = performance.now();
      await (await start('trivial')).result();
      concurrentWall.push(performance.now() - started);
    });
    const burstMs = performance.now() - burstStarted;
    rows.push({
      measure: `trivial workflow, client start → result, ${concurrency} at a time`,
      summary: summarize(concurrentWall),
    });
    throughputLine = `trivial workflows ${concurrency} at a time: ${(workflowCount / (burstMs / 1000)).toFixed(0)} per second; workflow bundle built once in ${(bundleMs / 1000).toFixed(1)} s`;
  });
  await connection.close();
  await workerConnection.close();
} finally {
  await stopServer(server);
  await rm(workDir, { recursive: true, force: true });
}

const ms = (value: number) => value.toFixed(2);
process.stdout.write(
  `Temporal CLI dev server (${path.basename(path.dirname(binary))}, SQLite ${values['in-memory'] ? 'in memory' : 'file'}, UI off) on ${address}; one worker in this process; ${os.cpus().length} cores, 1-min load average at the end ${os.loadavg()[0]!.toFixed(1)}\n\n`,
);
process.stdout.write(
  `${renderTable(
    [
      { header: 'measure', value: (row: Row) => row.measure },
      { header: 'n', value: (row: Row) => row.summary.count, align: 'right' },
      { header: 'p50 ms', value: (row: Row) => ms(row.summary.p50), align: 'right' },
      { header: 'p95 ms', value: (row: Row) => ms(row.summary.p95), align: 'right' },
      { header: 'p99 ms', value: (row: Row) => ms(row.summary.p99), align: 'right' },
      { header: 'max ms', value: (row: Row) => ms(row.summary.max), align: 'right' },
    ],
    rows,
  )}\n\n${throughputLine}\n`,
);
