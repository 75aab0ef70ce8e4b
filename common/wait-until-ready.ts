// Waits for a server this process started to answer its readiness probe, failing early when the
// child exits and at the deadline otherwise; both errors point at the server's log.
import type { ChildProcess } from 'node:child_process';

export async function waitUntilReady(options: {
  what: string;
  child: ChildProcess;
  probe: () => Promise<boolean>;
  timeoutMs: number;
  logFile: string;
  intervalMs?: number;
}): Promise<void> {
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const { exitCode, signalCode } = options.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${options.what} exited with ${exitCode ?? signalCode}; see ${options.logFile}`);
    if (await options.probe()) return;
    if (performance.now() > deadline)
      throw new Error(`${options.what} did not answer within ${options.timeoutMs / 1000} s; see ${options.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}
