// The scenarios a sandbox host has taken (claimSandboxHost): a host takes a scenario only while
// its memory and CPU budget has room for one more (host-admission.ts; each held scenario costs what
// was measured of its containers, sandbox/container-usage.ts, or the host's estimate), so the prepare → run → verify it is then sent on its own queue start at once —
// a task waiting there past its schedule-to-start timeout must mean the host is gone, not busy.
// A claim ends when its verifyScenario ends, or when nothing of it has run for `idleMs` (the
// workflow gave the scenario up or waits at the seat's gate: the room is lent meanwhile).
// Scenarios waiting for room take it longest first (then first come): the longest scenario started last
// is the evaluation's wall, and without an order the next claim was whichever retried first.
import { admitScenario, estimateCost, type HostBudget, type ScenarioCost } from './host-admission.ts';
import { hostClaimTiming } from '../contracts/host-claim-timing.ts';

export interface HostClaimsOptions {
  /** What this host lends to scenarios. */
  budget: HostBudget;
  /** One scenario's cost until this host has measured a few of its own (the calibrated default). */
  calibrated: ScenarioCost;
  /** A claim with no activity running and none started for this long no longer takes room. */
  idleMs: number;
  /** A waiting claim not asked again for this long has gone elsewhere (another host) or been given up. */
  waitingStaleMs?: number;
  /** A claim first seen this recently waits, so that claims arriving together (an evaluation's start) are ordered
   * among themselves rather than by who came first; 0: none. */
  settleMs?: number;
  now?: () => number;
}

/** A claim refused for room, waiting to be asked again. */
interface Waiter {
  /** Longer scenarios first: the seconds the task grants (hostClaimPriority). */
  priority: number;
  sinceMs: number;
  seenMs: number;
}

interface Claim {
  running: number;
  lastSeenMs: number;
  /** The peak memory and mean CPU of the scenario's containers so far, once sampled. */
  measured?: ScenarioCost;
}

/** Why the host last refused a scenario, and when. */
export interface HostRefusal {
  reason: string;
  atMs: number;
  /** false: the host has room, but a longer or earlier scenario takes it first. */
  full: boolean;
  /** This claim is next in line (it keeps asking); others give their place on the claim queue back. */
  next: boolean;
}

export class HostClaims {
  private readonly claims = new Map<string, Claim>();
  private readonly now: () => number;
  /** Measured costs of the scenarios this host finished, oldest first (the last few make the estimate). */
  private readonly finished: ScenarioCost[] = [];
  private refusal: HostRefusal | undefined;
  /** Docker networks the engine's address pools leave this host, as last sampled (none: not counted). */
  private networks: number | undefined;
  private readonly waiting = new Map<string, Waiter>();

  constructor(private readonly options: HostClaimsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Claims held now (idle ones dropped). */
  active(): number {
    const now = this.now();
    for (const [key, claim] of this.claims) {
      if (claim.running === 0 && now - claim.lastSeenMs >= this.options.idleMs) this.claims.delete(key);
    }
    return this.claims.size;
  }

  /** What the next scenario is expected to cost on this host. */
  estimate(): ScenarioCost {
    return estimateCost(this.options.calibrated, this.finished);
  }

  /** What each held scenario costs now: its measurement where that is above the estimate, else the estimate. */
  held(): ScenarioCost[] {
    this.active();
    const estimate = this.estimate();
    return [...this.claims.values()].map((claim) => ({
      memoryBytes: Math.max(claim.measured?.memoryBytes ?? 0, estimate.memoryBytes),
      cpus: Math.max(claim.measured?.cpus ?? 0, estimate.cpus),
    }));
  }

  /** Takes room for `key` if the budget has it and no longer scenario (higher `priority`; equal: the one waiting
   * longer) waits for it (a key already held is taken again at no cost); else the reason is kept for refusal().
   * `together`: the claims its evaluation sends at once, this one included (1: it comes alone). `sentMs`: when the
   * workflow first sent it; a claim that has been waiting elsewhere (another host) is not made to settle again. */
  tryClaim(key: string, priority = 0, together = 0, sentMs?: number): boolean {
    if (this.claims.has(key)) {
      this.claims.get(key)!.lastSeenMs = this.now();
      return true;
    }
    const now = this.now();
    const waiter = this.waiting.get(key) ?? { priority, sinceMs: Math.min(now, sentMs ?? now), seenMs: now };
    waiter.priority = priority;
    waiter.seenMs = now;
    this.waiting.set(key, waiter);
    const budget =
      this.networks === undefined ? this.options.budget : { ...this.options.budget, networks: this.networks };
    const settleMs = this.options.settleMs ?? 0;
    // A claim waits for those arriving with it only when the host has no room for them all: an evaluation whose
    // scenarios all fit (one scenario, a roomy host) starts at once.
    const settling =
      now - waiter.sinceMs < settleMs && !(together > 0 && this.roomFor(together - 1 + this.waiting.size - 1));
    const ahead = settling ? undefined : this.waitersAhead(key, waiter);
    const next = ahead === 0;
    // Room for this one after room for every claim ahead of it: a host with room for all takes them all at once.
    const estimate = this.estimate();
    const reserved = Array.from({ length: ahead ?? 0 }, () => estimate);
    const admission = admitScenario(budget, [...this.held(), ...reserved], estimate);
    if (!admission.admitted) {
      // Room now, but not beyond the claims ahead of it: the order refuses it, not the host's size (the count of
      // the budget's reason would name waiting claims as running ones).
      const roomNow = (ahead ?? 0) > 0 && admitScenario(budget, this.held(), estimate).admitted;
      this.refusal = roomNow
        ? {
            reason: `${ahead} waiting ${ahead === 1 ? 'scenario ahead of it takes' : 'scenarios ahead of it take'} the room first (longer, or waiting longer)`,
            atMs: now,
            full: false,
            next,
          }
        : { reason: admission.reason, atMs: now, full: true, next };
      return false;
    }
    if (ahead === undefined) {
      this.refusal = {
        reason: `claims arriving together are ordered first (${settleMs} ms)`,
        atMs: now,
        full: false,
        next,
      };
      return false;
    }
    this.waiting.delete(key);
    this.claims.set(key, { running: 0, lastSeenMs: now });
    return true;
  }

  /** Whether the host has room for one claim beyond `others` more (at the estimate each) and what it holds. */
  private roomFor(others: number): boolean {
    const budget =
      this.networks === undefined ? this.options.budget : { ...this.options.budget, networks: this.networks };
    const estimate = this.estimate();
    const reserved = Array.from({ length: Math.max(0, others) }, () => estimate);
    return admitScenario(budget, [...this.held(), ...reserved], estimate).admitted;
  }

  /** Waiting claims that go before `key`; those not asked again lately are forgotten. */
  private waitersAhead(key: string, mine: Waiter): number {
    const staleMs = this.options.waitingStaleMs ?? hostClaimTiming.waitingStaleMs;
    let ahead = 0;
    for (const [other, waiter] of this.waiting) {
      if (other === key) continue;
      if (mine.seenMs - waiter.seenMs > staleMs) {
        this.waiting.delete(other);
        continue;
      }
      const before =
        waiter.priority !== mine.priority
          ? waiter.priority > mine.priority
          : waiter.sinceMs !== mine.sinceMs
            ? waiter.sinceMs < mine.sinceMs
            : other < key;
      if (before) ahead += 1;
    }
    return ahead;
  }

  /** The Docker networks the engine's address pools leave this host now (sandbox/address-pools.ts). */
  setNetworksLeft(networks: number): void {
    this.networks = networks;
  }

  /** Why the host last refused a scenario. */
  lastRefusal(): HostRefusal | undefined {
    return this.refusal;
  }

  /** The keys of the scenarios held now. */
  keys(): string[] {
    this.active();
    return [...this.claims.keys()];
  }

  /** A sample of a held scenario's containers (sandbox/container-usage.ts): the highest memory seen, the latest mean
   * CPU share (its first seconds, starting containers, are not what the scenario costs over its life). */
  observe(key: string, cost: ScenarioCost): void {
    const claim = this.claims.get(key);
    if (!claim) return;
    claim.measured = {
      memoryBytes: Math.max(claim.measured?.memoryBytes ?? 0, cost.memoryBytes),
      cpus: cost.cpus,
    };
  }

  /** Measured costs of finished scenarios, oldest first. */
  measuredCosts(): readonly ScenarioCost[] {
    return this.finished;
  }

  /** Runs one of the claim's activities; the claim is held while it runs (and re-made if it had lapsed). */
  async within<T>(
    key: string,
    work: () => Promise<T>,
    options: { last?: boolean; endsOnFailure?: (error: unknown) => boolean } = {},
  ): Promise<T> {
    const claim = this.claims.get(key) ?? { running: 0, lastSeenMs: this.now() };
    this.claims.set(key, claim);
    claim.running += 1;
    let last = options.last === true;
    try {
      return await work();
    } catch (error) {
      // A failure after which nothing more of the scenario runs (its task is invalid): the room is free at once.
      if (options.endsOnFailure?.(error)) last = true;
      throw error;
    } finally {
      claim.running -= 1;
      claim.lastSeenMs = this.now();
      if (last && claim.running === 0) this.end(key, claim);
    }
  }

  /** Ends `key`'s claim now if none of its activities runs (the workflow is done with the scenario on this host
   * without a verification to end it); an unknown or ended claim is nothing to do. */
  release(key: string): boolean {
    const claim = this.claims.get(key);
    if (!claim || claim.running > 0) return false;
    this.end(key, claim);
    return true;
  }

  private end(key: string, claim: Claim): void {
    this.claims.delete(key);
    if (claim.measured) this.finished.push(claim.measured);
    if (this.finished.length > 100) this.finished.splice(0, this.finished.length - 100);
  }
}
