// The worker-thread side of off-loop.ts: a task in, one message out, for as long as the thread lives.
import { parentPort } from 'node:worker_threads';
import type { OffLoopReply, OffLoopTask } from './off-loop.ts';
import { scanPack } from './static-scan.ts';
import { findNearCopies } from './similarity.ts';

parentPort!.on('message', (task: OffLoopTask) => {
  let reply: OffLoopReply;
  try {
    reply = { ok: true, result: task.task === 'scan' ? scanPack(task.input, task.fingerprints, task.thresholds) : findNearCopies(task.candidate, task.others, task.threshold) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  parentPort!.postMessage(reply);
});
