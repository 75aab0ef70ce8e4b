// The worker-thread side of off-loop.ts: a task in, one message out, for as long as the thread lives.
import { parentPort } from 'node:worker_threads';
import type { OffLoopMessage, OffLoopReply } from './off-loop.ts';
import type { ScenarioFingerprints } from './scenario-fingerprints.ts';
import { scanPack } from './static-scan.ts';
import { findNearCopies } from './similarity.ts';

// The last fingerprints sent, kept with their index (fingerprint-index.ts caches it by the object).
let held: ScenarioFingerprints | undefined;

function fingerprintsOf(task: Extract<OffLoopMessage, { task: 'scan' }>): ScenarioFingerprints {
  if (task.fingerprints) held = task.fingerprints;
  if (held?.digest !== task.fingerprintsDigest)
    throw new Error(`the thread holds no fingerprints with digest ${task.fingerprintsDigest}`);
  return held;
}

parentPort!.on('message', (task: OffLoopMessage) => {
  let reply: OffLoopReply;
  try {
    reply = {
      ok: true,
      result:
        task.task === 'scan'
          ? scanPack(task.input, fingerprintsOf(task), task.thresholds)
          : findNearCopies(task.candidate, task.others, task.threshold),
    };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  parentPort!.postMessage(reply);
});
