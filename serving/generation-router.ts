// Which policy answers a conversation while the seat changes hands. Each pack served is a
// generation with its own instance pool. New conversations go to the current generation; a
// conversation already open on an older one finishes there, until that generation's drain
// deadline. A draining generation closes as soon as its last conversation is idle-reaped, or at
// the deadline, whichever comes first; after that its conversations continue on the current one
// (on a fresh instance, as after a crash).
import type { ServedInstance } from './instance-pool.ts';

/** What the router needs of a pool (InstancePool has it). */
export interface ConversationPool {
  run<T>(key: string, work: (instance: ServedInstance) => Promise<T>): Promise<T>;
  /** True while the conversation has an instance in this pool. */
  has(key: string): boolean;
  /** Conversations with an instance. */
  readonly size: number;
  close(): Promise<void>;
}

export interface Generation<P extends ConversationPool = ConversationPool> {
  packHash: string;
  pool: P;
}

/** Runs a request on its conversation's instance; `packHash` names the policy that answered. */
export interface ConversationRouter {
  run<T>(key: string, work: (instance: ServedInstance, packHash: string) => Promise<T>): Promise<T>;
}

interface Draining<P extends ConversationPool> {
  generation: Generation<P>;
  untilMs: number;
}

export interface GenerationRouterOptions<P extends ConversationPool = ConversationPool> {
  /** Called once per generation when it is closed: `drained` (no conversation left) or `deadline`. */
  onClosed?(generation: Generation<P>, reason: 'drained' | 'deadline' | 'closing'): void;
  now?(): number;
  /** How often draining generations are checked between requests. */
  sweepEveryMs?: number;
}

export class GenerationRouter<P extends ConversationPool = ConversationPool> implements ConversationRouter {
  private live: Generation<P>;
  private readonly old: Draining<P>[] = [];
  private readonly closing = new Set<Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    first: Generation<P>,
    private readonly options: GenerationRouterOptions<P> = {},
  ) {
    this.live = first;
    this.sweeper = setInterval(() => this.sweep(), options.sweepEveryMs ?? 1000);
    this.sweeper.unref();
  }

  get current(): Generation<P> {
    return this.live;
  }

  /** Older generations still finishing their conversations, oldest first. */
  get draining(): readonly { packHash: string; conversations: number; untilMs: number }[] {
    return this.old.map(({ generation, untilMs }) => ({
      packHash: generation.packHash,
      conversations: generation.pool.size,
      untilMs,
    }));
  }

  async run<T>(key: string, work: (instance: ServedInstance, packHash: string) => Promise<T>): Promise<T> {
    this.sweep();
    // Newest first: a conversation that was moved on after a deadline never returns to an older pool.
    const owner = [...this.old].reverse().find(({ generation }) => generation.pool.has(key))?.generation;
    const generation = owner && !this.live.pool.has(key) ? owner : this.live;
    return generation.pool.run(key, (instance) => work(instance, generation.packHash));
  }

  /** The seat changed: `next` takes every new conversation; the current one drains for `drainMs`. */
  switchTo(next: Generation<P>, drainMs: number): void {
    if (next.packHash === this.live.packHash) throw new Error(`pack ${next.packHash} is already served`);
    this.old.push({ generation: this.live, untilMs: this.now() + drainMs });
    this.live = next;
    this.sweep();
  }

  /** Closes draining generations with no conversation left or past their deadline. */
  sweep(): void {
    const now = this.now();
    for (const entry of [...this.old]) {
      const reason = entry.generation.pool.size === 0 ? 'drained' : now >= entry.untilMs ? 'deadline' : undefined;
      if (reason) this.retire(entry, reason);
    }
  }

  private retire(entry: Draining<P>, reason: 'drained' | 'deadline' | 'closing'): void {
    this.old.splice(this.old.indexOf(entry), 1);
    this.options.onClosed?.(entry.generation, reason);
    const closing = entry.generation.pool.close().catch(() => undefined);
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const entry of [...this.old]) this.retire(entry, 'closing');
    this.options.onClosed?.(this.live, 'closing');
    await this.live.pool.close();
    while (this.closing.size) await Promise.all([...this.closing]);
  }
}
