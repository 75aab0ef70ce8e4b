// Runs the pre-evaluation scans (static scan, similarity) in a worker thread with a time limit, so
// no pack can hold the worker's event loop (heartbeats, other activities) however its input is
// shaped. A scan that passes its limit is the pack's failure (a rejection), never the worker's.
import { Worker } from 'node:worker_threads';
import type { CanonicalPack } from '../canonical-pack.ts';
import type { ScenarioFingerprints } from './scenario-fingerprints.ts';
import type { ScanThresholds } from './scan-thresholds.ts';
import type { ScanInput, ScanResult } from './static-scan.ts';
import type { NearCopy } from './similarity.ts';

export type OffLoopTask =
  | { task: 'scan'; input: ScanInput; fingerprints: ScenarioFingerprints; thresholds: ScanThresholds }
  | { task: 'similarity'; candidate: CanonicalPack; others: { packHash: string; pack: CanonicalPack }[]; threshold: number };

type OffLoopResult<T extends OffLoopTask> = T extends { task: 'scan' } ? ScanResult : NearCopy[];

export const defaultScanTimeLimitMs = 30_000;

export class ScanTimeLimitError extends Error {
  constructor(readonly task: OffLoopTask['task'], readonly limitMs: number) {
    super(`the ${task === 'scan' ? 'static scan' : 'similarity check'} did not finish within ${limitMs / 1000} s`);
    this.name = 'ScanTimeLimitError';
  }
}

// Node 20 does not apply `--import tsx` to a worker's entry file: the thread registers tsx itself
// and then loads the TypeScript entry.
const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./off-loop-worker.ts', import.meta.url).href)}); });`;

export function runOffLoop<T extends OffLoopTask>(task: T, limitMs = defaultScanTimeLimitMs): Promise<OffLoopResult<T>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: task, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new ScanTimeLimitError(task.task, limitMs))), limitMs);
    worker.once('message', (message: { ok: true; result: OffLoopResult<T> } | { ok: false; error: string }) =>
      finish(() => (message.ok ? resolve(message.result) : reject(new Error(message.error)))),
    );
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`the pre-evaluation thread exited with ${code} before answering`))));
  });
}
