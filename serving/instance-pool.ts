// The policy instances `trl serve` runs: one per conversation (session key), at most `maxInstances`
// at once, an idle one stopped after `idleMs`, the least recently used idle one stopped when a new
// conversation needs room. Requests of one conversation run one at a time on its instance, so what
// its gateway spent in between is exactly that request's cost. An instance that crashed is retired
// and its request fails with a clear error; the conversation's next request gets a fresh instance.

/** One model call an instance's gateway made (its call log, without bodies). */
export interface MeteredCall {
  model: string;
  costUsd: number;
  promptTokens?: number;
  completionTokens?: number;
}

/** A running policy (its sandbox, gateway and agent endpoint) as the pool sees it. */
export interface ServedInstance {
  readonly id: string;
  /** OpenAI base URL of the instance's agent endpoint (ends in /v1). */
  readonly url: string;
  /** Why the instance can no longer answer (crashed, never started); undefined while it can. */
  failure(): string | undefined;
  /** True when its budget is nearly spent: it answers this request, then is retired. */
  worn(): boolean;
  /** Every call its gateway made so far, in order. */
  calls(): readonly MeteredCall[];
  stop(): Promise<void>;
}

export interface InstancePoolOptions {
  maxInstances: number;
  idleMs: number;
  startInstance(id: string): Promise<ServedInstance>;
  /** Called when an instance is stopped (reaped, evicted, crashed, worn, closing). */
  onRetired?(instance: ServedInstance, reason: string): void;
  now?(): number;
}

/** Every instance is busy and none can be added: the client should retry. */
export class PoolFullError extends Error {
  constructor(readonly maxInstances: number) {
    super(`all ${maxInstances} policy instances are busy with other conversations; retry shortly`);
    this.name = 'PoolFullError';
  }
}

/** The instance serving the request crashed (or never started); it has been retired. */
export class InstanceFailedError extends Error {
  constructor(
    readonly instanceId: string,
    readonly reason: string,
  ) {
    super(
      `the policy instance ${instanceId} serving this conversation failed: ${reason}. It was replaced; the next request of this conversation starts on a fresh instance (the policy's memory of the conversation is lost)`,
    );
    this.name = 'InstanceFailedError';
  }
}

interface Slot {
  key: string;
  id: string;
  instance: Promise<ServedInstance>;
  lastUsedMs: number;
  busy: number;
  tail: Promise<unknown>;
}

export class InstancePool {
  private readonly slots = new Map<string, Slot>();
  private readonly stopping = new Set<Promise<void>>();
  private readonly reaper: NodeJS.Timeout;
  private started = 0;
  private closed = false;

  constructor(private readonly options: InstancePoolOptions) {
    const everyMs = Math.max(50, Math.min(options.idleMs / 2, 30_000));
    this.reaper = setInterval(() => this.reap(), everyMs);
    this.reaper.unref();
  }

  get size(): number {
    return this.slots.size;
  }

  /** True while the conversation has an instance here (the generation router asks). */
  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** Instances started so far (replacements included). */
  get instancesStarted(): number {
    return this.started;
  }

  /** Runs `work` on the conversation's instance, after the conversation's earlier requests. */
  async run<T>(key: string, work: (instance: ServedInstance) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('the pool is closed');
    const slot = this.slotFor(key);
    slot.busy += 1;
    const turn = slot.tail.then(() => this.runOn(slot, work));
    slot.tail = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      slot.busy -= 1;
      slot.lastUsedMs = this.now();
    }
  }

  private async runOn<T>(slot: Slot, work: (instance: ServedInstance) => Promise<T>): Promise<T> {
    let instance: ServedInstance;
    try {
      instance = await slot.instance;
    } catch (error) {
      this.forget(slot);
      throw new InstanceFailedError(slot.id, `it did not start: ${(error as Error).message}`);
    }
    const before = instance.failure();
    if (before !== undefined) {
      this.retire(slot, instance, 'failed');
      throw new InstanceFailedError(instance.id, before);
    }
    let result: T;
    try {
      result = await work(instance);
    } catch (error) {
      const failure = instance.failure();
      if (failure === undefined) throw error;
      this.retire(slot, instance, 'failed');
      throw new InstanceFailedError(instance.id, failure);
    }
    const failure = instance.failure();
    if (failure !== undefined) {
      this.retire(slot, instance, 'failed');
      throw new InstanceFailedError(instance.id, failure);
    }
    if (instance.worn()) this.retire(slot, instance, 'budget nearly spent');
    return result;
  }

  private slotFor(key: string): Slot {
    const existing = this.slots.get(key);
    if (existing) return existing;
    if (this.slots.size >= this.options.maxInstances) {
      const idle = [...this.slots.values()].filter((s) => s.busy === 0).sort((a, b) => a.lastUsedMs - b.lastUsedMs)[0];
      if (!idle) throw new PoolFullError(this.options.maxInstances);
      this.retireSlot(idle, 'evicted for a new conversation');
    }
    this.started += 1;
    const id = `i${this.started}`;
    const instance = this.options.startInstance(id);
    instance.catch(() => undefined);
    const slot: Slot = { key, id, instance, lastUsedMs: this.now(), busy: 0, tail: Promise.resolve() };
    this.slots.set(key, slot);
    return slot;
  }

  /** Stops idle instances older than idleMs. */
  reap(): void {
    const now = this.now();
    for (const slot of [...this.slots.values()])
      if (slot.busy === 0 && now - slot.lastUsedMs >= this.options.idleMs) this.retireSlot(slot, 'idle');
  }

  private forget(slot: Slot): void {
    if (this.slots.get(slot.key) === slot) this.slots.delete(slot.key);
  }

  private retireSlot(slot: Slot, reason: string): void {
    this.forget(slot);
    this.track(
      slot.instance.then(
        (instance) => this.stopInstance(instance, reason),
        () => undefined,
      ),
    );
  }

  private retire(slot: Slot, instance: ServedInstance, reason: string): void {
    this.forget(slot);
    this.track(this.stopInstance(instance, reason));
  }

  private async stopInstance(instance: ServedInstance, reason: string): Promise<void> {
    this.options.onRetired?.(instance, reason);
    await instance.stop().catch(() => undefined);
  }

  private track(stopping: Promise<void>): void {
    this.stopping.add(stopping);
    void stopping.finally(() => this.stopping.delete(stopping));
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  /** Stops every instance (waiting for open requests is the server's job). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.reaper);
    for (const slot of [...this.slots.values()]) this.retireSlot(slot, 'closing');
    while (this.stopping.size) await Promise.all([...this.stopping]);
  }
}
