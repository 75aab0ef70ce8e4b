// The scenarios a sandbox host has taken (claimSandboxHost): a host takes a scenario only while
// it has room, so the prepare → run → verify it is then sent on its own queue start at once —
// a task waiting there past its schedule-to-start timeout must mean the host is gone, not busy.
// A claim ends when its verifyScenario ends, or when nothing of it has run for `idleMs` (the
// workflow gave the scenario up or waits at the seat's gate: the room is lent meanwhile).
export interface HostClaimsOptions {
  /** Scenarios this host runs at once. */
  capacity: number;
  /** A claim with no activity running and none started for this long no longer takes room. */
  idleMs: number;
  now?: () => number;
}

interface Claim {
  running: number;
  lastSeenMs: number;
}

export class HostClaims {
  private readonly claims = new Map<string, Claim>();
  private readonly now: () => number;

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

  /** Takes room for `key` if there is any (a key already held is taken again at no cost). */
  tryClaim(key: string): boolean {
    if (this.claims.has(key)) {
      this.claims.get(key)!.lastSeenMs = this.now();
      return true;
    }
    if (this.active() >= this.options.capacity) return false;
    this.claims.set(key, { running: 0, lastSeenMs: this.now() });
    return true;
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
      if (last && claim.running === 0) this.claims.delete(key);
    }
  }
}
