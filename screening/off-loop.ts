// Runs the pre-evaluation scans (static scan, similarity) in a worker thread with a time limit, so
// no pack can hold the worker's event loop (heartbeats, other activities) however its input is
// shaped. A scan that passes its limit is the pack's failure (a rejection), never the worker's.
//
// Threads are kept warm between tasks: starting one (registering tsx, loading the scan's modules)
// cost about 0.6 s of CPU and 0.4 s of wall time, twice per pre-evaluation. A thread runs one task
// at a time; nothing of a task outlives it in the thread (the scans keep no state between calls), and
// a thread whose task passed its limit, failed or died is ended, never reused. Idle threads do not
// keep the process alive.
import { Worker } from 'node:worker_threads';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import type { ScenarioFingerprints } from './scenario-fingerprints.ts';
import type { ScanThresholds } from './scan-thresholds.ts';
import type { ScanInput, ScanResult } from './static-scan.ts';
import type { NearCopy } from './similarity.ts';

export type OffLoopTask =
  | { task: 'scan'; input: ScanInput; fingerprints: ScenarioFingerprints; thresholds: ScanThresholds }
  | {
      task: 'similarity';
      candidate: CanonicalPack;
      others: { packHash: string; pack: CanonicalPack }[];
      threshold: number;
    };

type OffLoopResult<T extends OffLoopTask> = T extends { task: 'scan' } ? ScanResult : NearCopy[];
export type OffLoopReply = { ok: true; result: unknown } | { ok: false; error: string };
/**
 * What goes to the thread. The scenario fingerprints (3 MB, 18 k entries for the 26 scenarios) go
 * once per thread and digest: a thread keeps the last set it was sent, and with it their index.
 */
export type OffLoopMessage =
  | Exclude<OffLoopTask, { task: 'scan' }>
  | {
      task: 'scan';
      input: ScanInput;
      thresholds: ScanThresholds;
      fingerprintsDigest: string;
      fingerprints?: ScenarioFingerprints;
    };

export const defaultScanTimeLimitMs = 30_000;
/** Idle threads kept for the next tasks; more run at once when tasks overlap, and end after. */
export const maxIdleOffLoopThreads = 2;

export class ScanTimeLimitError extends Error {
  constructor(
    readonly task: OffLoopTask['task'],
    readonly limitMs: number,
  ) {
    super(`the ${task === 'scan' ? 'static scan' : 'similarity check'} did not finish within ${limitMs / 1000} s`);
    this.name = 'ScanTimeLimitError';
  }
}

// Node 20 does not apply `--import tsx` to a worker's entry file: the thread registers tsx itself
// and then loads the TypeScript entry.
const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./off-loop-worker.ts', import.meta.url).href)}); });`;

const idle: Worker[] = [];
let threadsStarted = 0;
/** The digest of the fingerprints each thread holds. */
const heldDigest = new WeakMap<Worker, string>();

/** Threads started in this process so far, and those idle now (the tests of the reuse read them). */
export function offLoopThreadsStarted(): number {
  return threadsStarted;
}

export function offLoopIdleThreads(): number {
  return idle.length;
}

function startThread(): Worker {
  threadsStarted += 1;
  const worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
  // An idle thread that fails or ends on its own leaves the pool.
  const leave = () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on('error', leave);
  worker.on('exit', leave);
  return worker;
}

function release(worker: Worker): void {
  if (idle.length < maxIdleOffLoopThreads) {
    worker.unref();
    idle.push(worker);
  } else {
    void worker.terminate();
  }
}

function messageFor(worker: Worker, task: OffLoopTask): OffLoopMessage {
  if (task.task !== 'scan') return task;
  const { fingerprints, ...rest } = task;
  const held = heldDigest.get(worker) === fingerprints.digest;
  return held
    ? { ...rest, fingerprintsDigest: fingerprints.digest }
    : { ...rest, fingerprintsDigest: fingerprints.digest, fingerprints };
}

export function runOffLoop<T extends OffLoopTask>(
  task: T,
  limitMs = defaultScanTimeLimitMs,
): Promise<OffLoopResult<T>> {
  return new Promise((resolve, reject) => {
    const worker = idle.pop() ?? startThread();
    worker.ref();
    const message = messageFor(worker, task);
    let settled = false;
    const finish = (reuse: boolean, settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) release(worker);
      else void worker.terminate();
      settle();
    };
    const onMessage = (reply: OffLoopReply) => {
      if (reply.ok && message.task === 'scan') heldDigest.set(worker, message.fingerprintsDigest);
      finish(reply.ok, () => (reply.ok ? resolve(reply.result as OffLoopResult<T>) : reject(new Error(reply.error))));
    };
    const onError = (error: Error) => finish(false, () => reject(error));
    const onExit = (code: number) =>
      finish(false, () => reject(new Error(`the pre-evaluation thread exited with ${code} before answering`)));
    const timer = setTimeout(() => finish(false, () => reject(new ScanTimeLimitError(task.task, limitMs))), limitMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(message);
  });
}
