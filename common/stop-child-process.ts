// Stops a child process this one started: SIGTERM, then SIGKILL if it is still there after the
// grace period; resolves once it has exited (at once if it already has).
import type { ChildProcess } from 'node:child_process';

export function stopChildProcess(child: ChildProcess, options: { graceMs: number }): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), options.graceMs).unref();
  });
}
