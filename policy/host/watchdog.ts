// The run's watchdog: a policy-driven agent is stopped when no model call has completed within
// `firstCallMs` of the policy's time, or in the last `idleMs` of it. What the agent wrote is verified
// as usual; the fault says why it stopped. A completed call is a gateway call that ended `ok`.
// The policy's time is the time the agent waits on it with no gateway call in flight:
// - a call in flight is the upstream's time (bounded by its own timeout, blamed on it when it runs out).
//   A real model on 2 cores takes longer than 120 s for Hermes' first answer when three scenarios share
//   two slots; counted, it made the policy's fault of the model's speed;
// - while no agent request is open the agent is busy (starting, running a tool command): on a loaded
//   host Hermes took over 120 s to send its first request, and 13 of 26 honest scenarios were stopped
//   as the policy's fault before the policy had been asked anything.
import { CallLog } from '../../gateway/call-log.ts';
import type { PolicyFault } from './policy-backend.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { workerSettings } from '../../common/settings/worker-settings.ts';

export interface WatchdogLimits {
  firstCallMs: number;
  idleMs: number;
}

export const defaultWatchdogLimits: WatchdogLimits = { firstCallMs: 120_000, idleMs: 600_000 };

/** TRL_WATCHDOG_FIRST_CALL_SEC (120) and TRL_WATCHDOG_IDLE_SEC (600); anything but a positive number is refused. */
export function watchdogLimitsFromEnv(env: Record<string, string | undefined> = process.env): WatchdogLimits {
  return {
    firstCallMs: readSetting(workerSettings, 'TRL_WATCHDOG_FIRST_CALL_SEC', env) * 1000,
    idleMs: readSetting(workerSettings, 'TRL_WATCHDOG_IDLE_SEC', env) * 1000,
  };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export class Watchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private completedOnce = false;
  /** Gateway calls sent and not yet ended. */
  private inFlight = 0;
  /** Agent requests the policy is answering. */
  private agentWaiting = 0;
  /** The policy's time since the clock's reference (the start or the last completed call), closed spans. */
  private policyMs = 0;
  /** When the span now counting began: the agent waits and no call is in flight. */
  private countingSinceMs: number | undefined;
  fault: PolicyFault | undefined;

  constructor(
    private readonly limits: WatchdogLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Aborted (with the fault's message as reason) when the watchdog fires. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Arms the watchdog: call when the agent starts. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.recount();
    const tickMs = Math.max(50, Math.min(1000, this.limits.firstCallMs / 4, this.limits.idleMs / 4));
    this.timer = setInterval(() => this.check(), tickMs);
    this.timer.unref();
  }

  /** The agent sent the policy a request: the policy's clock runs while it is open and no call is in flight. */
  noteAgentRequestOpened(): void {
    this.agentWaiting += 1;
    this.recount();
  }

  noteAgentRequestClosed(): void {
    if (this.agentWaiting === 0) return;
    this.agentWaiting -= 1;
    this.recount();
  }

  noteCompletedCall(): void {
    this.completedOnce = true;
    this.policyMs = 0;
    if (this.countingSinceMs !== undefined) this.countingSinceMs = this.now();
  }

  /** A gateway call was sent upstream: the clocks stop until no call is in flight. */
  noteCallStarted(): void {
    this.inFlight += 1;
    this.recount();
  }

  /** A gateway call ended, whatever its outcome (call noteCompletedCall after this one for an `ok`). */
  noteCallEnded(): void {
    if (this.inFlight === 0) return;
    this.inFlight -= 1;
    this.recount();
  }

  /** The policy's time since the last completed call (or the start). */
  policyTimeMs(): number {
    return this.policyMs + (this.countingSinceMs === undefined ? 0 : this.now() - this.countingSinceMs);
  }

  /** Fires when a limit has passed; exposed for tests with a fake clock. */
  check(): void {
    if (!this.started || this.fault) return;
    const spent = this.policyTimeMs();
    if (!this.completedOnce) {
      if (spent >= this.limits.firstCallMs)
        this.fire(
          `watchdog: no completed model call in the first ${seconds(this.limits.firstCallMs)} the agent waited on the policy`,
        );
    } else if (spent >= this.limits.idleMs) {
      this.fire(`watchdog: no completed model call in ${seconds(this.limits.idleMs)} the agent waited on the policy`);
    }
  }

  /** Opens or closes the counting span as the agent's and the upstream's states change. */
  private recount(): void {
    const counting = this.started && this.agentWaiting > 0 && this.inFlight === 0;
    if (counting && this.countingSinceMs === undefined) this.countingSinceMs = this.now();
    if (!counting && this.countingSinceMs !== undefined) {
      this.policyMs += this.now() - this.countingSinceMs;
      this.countingSinceMs = undefined;
    }
  }

  private fire(message: string): void {
    this.fault = { kind: 'watchdog', message };
    this.stop();
    this.controller.abort(new Error(message));
  }

  /** Stops the agent for a reason of the run's own (not a watchdog fault): the scenario's status says why. */
  halt(reason: string): void {
    this.stop();
    if (!this.controller.signal.aborted) this.controller.abort(new Error(reason));
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The gateway's call log, telling the watchdog about every call that completed. */
export class WatchedCallLog extends CallLog {
  constructor(
    file: string | undefined,
    private readonly watchdog: Watchdog,
    /** Sees every settled response, complete or cut short (provenance fingerprints them). */
    private readonly onResponse?: (response: unknown) => void,
  ) {
    super(file);
  }

  override started(row: Parameters<CallLog['started']>[0], requestJson?: string): void {
    super.started(row, requestJson);
    this.watchdog.noteCallStarted();
  }

  override ended(row: Parameters<CallLog['ended']>[0]): void {
    super.ended(row);
    this.watchdog.noteCallEnded();
    if (row.status === 'ok') this.watchdog.noteCompletedCall();
    if (row.response !== undefined) this.onResponse?.(row.response);
  }
}
