// The worker-thread side of off-loop.ts: one task in, one message out.
import { parentPort, workerData } from 'node:worker_threads';
import type { OffLoopTask } from './off-loop.ts';
import { scanPack } from './static-scan.ts';
import { findNearCopies } from './similarity.ts';

const task = workerData as OffLoopTask;
try {
  const result = task.task === 'scan' ? scanPack(task.input, task.fingerprints, task.thresholds) : findNearCopies(task.candidate, task.others, task.threshold);
  parentPort!.postMessage({ ok: true, result });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
}
