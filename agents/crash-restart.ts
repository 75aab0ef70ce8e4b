// An agent harness that dies of a fatal signal (a segfault, a bus error, an abort) before its
// policy endpoint saw a single request crashed on its own: nothing the pack controls reached it.
// It is started again (a fresh process, the same container, what remains of the deadline); if it
// keeps crashing that way the run says so, and the activity treats it as the infrastructure's
// (contracts/blame.ts). A crash after the first request stays the agent's, scored as it is.
import type { AgentRunRecord, AgentRunRequest, ScenarioAgent } from './scenario-agent.ts';

/** Signals that mean the process crashed by itself (not a kill by us or by the kernel's OOM killer). */
const crashSignals: Record<number, string> = { 4: 'SIGILL', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE', 11: 'SIGSEGV' };

/** The crash signal behind an exit code (a shell or `docker exec` reports signal n as 128 + n). */
export function crashSignalOf(exitCode: number | null): string | undefined {
  return exitCode !== null && exitCode > 128 ? crashSignals[exitCode - 128] : undefined;
}

/** Starts after a crash: enough to tell a flaky start from a harness that cannot run. */
export const defaultCrashRestarts = 2;

/** Below this much time left, a restart could not do the task: the crash stands. */
const minimumTimeForRestartMs = 30_000;

export class CrashRestartingAgent implements ScenarioAgent {
  readonly name: string;

  constructor(
    private readonly inner: ScenarioAgent,
    /** How many requests the policy endpoint has received so far. */
    private readonly requestsSeen: () => number,
    private readonly restarts = defaultCrashRestarts,
  ) {
    this.name = inner.name;
  }

  async run(request: AgentRunRequest): Promise<AgentRunRecord> {
    const crashes: string[] = [];
    for (;;) {
      const before = this.requestsSeen();
      const record = await this.inner.run(request);
      const signal = crashSignalOf(record.exitCode);
      const untouched = this.requestsSeen() === before;
      if (!signal || record.timedOut || !untouched || request.signal?.aborted) {
        return crashes.length ? { ...record, transcript: `${crashes.join('\n')}\n${record.transcript}` } : record;
      }
      crashes.push(`[the agent crashed (${signal}) before its first request to the policy; restarted]`);
      const timeLeft = request.deadlineMs - performance.now();
      if (crashes.length > this.restarts || timeLeft < minimumTimeForRestartMs) {
        return {
          ...record,
          transcript: `${crashes.slice(0, -1).join('\n')}\n${record.transcript}`.trimStart(),
          crashedBeforeFirstRequest: signal,
        };
      }
    }
  }

  records(): Buffer | undefined {
    return this.inner.records?.();
  }
}
