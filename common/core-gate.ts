// A host's cores lent to bursts of work, first come first served: a holder takes the cores it declares, and the next
// waits until they fit beside those held (or nothing is held: a request larger than the host still runs, alone).
// A sandbox host admits scenarios by their mean CPU share, mostly waiting on models; their verifications are bursts
// of a core or more each, and when many coincide they shared the cores so thinly that a verifier's own timeout
// measured the host's load, not the solution (docs/explanation/roles-and-queues.md).
// A holder measured using less than it declared (a test sitting out a timeout) counts what it uses, but never less
// than a quarter of what it declared: its cores go to the next in line instead of idling, and a waking holder shares
// with at most a few.

interface Waiter {
  /** Cores the holder declared. */
  cores: number;
  /** When it asked, for how long it waited. */
  sinceMs: number;
  admit: () => void;
  /** What it counts for while held: its declared cores until measured. */
  counted: number;
}

/** The least share of its declared cores a measured holder counts for. */
const idleHolderShare = 0.25;

export interface CoreLease {
  release: () => void;
  waitedMs: number;
  /** The cores the holder was measured using lately: it counts for that, within [a quarter, all] of its declared. */
  measured: (cores: number) => void;
}

export class CoreGate {
  private held = 0;
  private holders = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly cores: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(cores > 0)) throw new Error(`CoreGate needs a positive number of cores, got ${cores}`);
  }

  /** Waits for `cores` (FIFO: no later request goes first), then returns the release and how long it waited.
   * An abort while waiting leaves the queue and rejects with the signal's reason. */
  async acquire(cores: number, signal?: AbortSignal): Promise<CoreLease> {
    signal?.throwIfAborted();
    const entry: Waiter = { cores, sinceMs: this.now(), admit: () => undefined, counted: cores };
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.queue.indexOf(entry);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal?.reason ?? new Error('aborted'));
        this.drain();
      };
      entry.admit = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.drain();
    });
    let released = false;
    return {
      waitedMs: this.now() - entry.sinceMs,
      release: () => {
        if (released) return;
        released = true;
        this.held -= entry.counted;
        this.holders -= 1;
        this.drain();
      },
      measured: (use) => {
        if (released || !Number.isFinite(use)) return;
        const counted = Math.min(cores, Math.max(use, cores * idleHolderShare));
        this.held += counted - entry.counted;
        entry.counted = counted;
        this.drain();
      },
    };
  }

  /** Cores held (as counted) and requests waiting now. */
  state(): { heldCores: number; holders: number; waiting: number } {
    return { heldCores: this.held, holders: this.holders, waiting: this.queue.length };
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (this.holders > 0 && this.held + next.cores > this.cores + 1e-9) return;
      this.queue.shift();
      this.held += next.counted;
      this.holders += 1;
      next.admit();
    }
  }
}
