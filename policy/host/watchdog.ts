// The run's watchdog: a policy-driven agent is stopped when no model call has completed within
// `firstCallMs` of its start, or in the last `idleMs`. What the agent wrote is verified as usual;
// the fault says why it stopped. A completed call is a gateway call that ended `ok`.
// The clocks stop while a gateway call is in flight: that time is the upstream's (bounded by its own
// timeout, blamed on it when it runs out), not the policy's idleness. A real model on 2 cores takes
// longer than 120 s for Hermes' first answer when three scenarios share two slots; counted, it made
// the policy's fault of the model's speed.
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
  private startedMs: number | undefined;
  private lastCompletedMs: number | undefined;
  /** Gateway calls sent and not yet ended; while any is, the clocks stand still. */
  private inFlight = 0;
  private inFlightSinceMs: number | undefined;
  /** Time spent with a call in flight since the clock's reference (the start or the last completed call). */
  private waitedMs = 0;
  fault: PolicyFault | undefined;

  constructor(
    private readonly limits: WatchdogLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Aborted (with the fault's message as reason) when the watchdog fires. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the clocks: call when the agent starts. */
  start(): void {
    if (this.startedMs !== undefined) return;
    this.startedMs = this.now();
    const tickMs = Math.max(50, Math.min(1000, this.limits.firstCallMs / 4, this.limits.idleMs / 4));
    this.timer = setInterval(() => this.check(), tickMs);
    this.timer.unref();
  }

  noteCompletedCall(): void {
    this.lastCompletedMs = this.now();
    this.waitedMs = 0;
    if (this.inFlight > 0) this.inFlightSinceMs = this.lastCompletedMs;
  }

  /** A gateway call was sent upstream: the clocks stop until no call is in flight. */
  noteCallStarted(): void {
    if (this.inFlight++ === 0) this.inFlightSinceMs = this.now();
  }

  /** A gateway call ended, whatever its outcome (call noteCompletedCall after this one for an `ok`). */
  noteCallEnded(): void {
    if (this.inFlight === 0) return;
    if (--this.inFlight === 0 && this.inFlightSinceMs !== undefined) {
      this.waitedMs += this.now() - this.inFlightSinceMs;
      this.inFlightSinceMs = undefined;
    }
  }

  /** Fires when a limit has passed; exposed for tests with a fake clock. */
  check(): void {
    if (this.startedMs === undefined || this.fault) return;
    if (this.inFlight > 0) return;
    const now = this.now() - this.waitedMs;
    if (this.lastCompletedMs === undefined) {
      if (now - this.startedMs >= this.limits.firstCallMs)
        this.fire(`watchdog: no completed model call within ${seconds(this.limits.firstCallMs)} of the start`);
    } else if (now - this.lastCompletedMs >= this.limits.idleMs) {
      this.fire(`watchdog: no completed model call in ${seconds(this.limits.idleMs)}`);
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
