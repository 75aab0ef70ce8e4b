// Shadow mode: a sample of live conversations is replayed, request by request, to a challenger's
// policy after the live answer went out. The challenger's answers are discarded; its latency, cost
// and models are recorded beside the live ones. Whole conversations are sampled (a policy keeps
// state per conversation), chosen by a hash of the session key so the choice is stable. The mirror
// never delays or fails a live request: it runs after the answer, skips when its instances are
// busy, and stops taking new conversations once it has spent its cap.
import { createHash } from 'node:crypto';
import type { AnsweredRequest } from './serve-server.ts';
import type { ConversationRouter } from './generation-router.ts';
import { forwardChat } from './forward-chat.ts';

export interface ShadowRecord {
  at: string;
  session: string;
  pack: string;
  status: number;
  latencyMs: number;
  costUsd: number;
  models: string[];
  error?: string;
  live: { status: number; latencyMs: number; costUsd: number; models: string[] };
}

export interface ShadowSide {
  requests: number;
  failed: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  costUsd: number;
  costPerRequestUsd: number;
  models: Record<string, number>;
}

export interface ShadowSummary {
  shadowPack: string;
  sampleRate: number;
  capUsd: number;
  /** Live requests of sampled conversations that were not mirrored: instances busy, or the cap reached. */
  skippedBusy: number;
  skippedCap: number;
  live: ShadowSide;
  shadow: ShadowSide;
}

export interface ShadowMirrorOptions {
  shadowPack: string;
  conversations: ConversationRouter;
  /** Share of conversations mirrored, 0..1. */
  sampleRate: number;
  /** What the shadow may spend in total; past it no new request is mirrored. */
  capUsd: number;
  /** Mirrored requests in flight at once (the shadow pool's size is a good bound). */
  maxInFlight: number;
  timeoutMs: number;
  record(entry: ShadowRecord): void;
}

/** Stable share of a session key in [0, 1). */
export function sessionShare(session: string): number {
  return createHash('sha256').update(session).digest().readUInt32BE(0) / 2 ** 32;
}

export class ShadowMirror {
  private inFlight = 0;
  private spentUsd = 0;
  private skippedBusy = 0;
  private skippedCap = 0;
  private readonly pending = new Set<Promise<void>>();
  private readonly records: ShadowRecord[] = [];
  private readonly recordLimit = 100_000;

  constructor(private readonly options: ShadowMirrorOptions) {}

  sampled(session: string): boolean {
    return sessionShare(session) < this.options.sampleRate;
  }

  /** Called after a live answer; returns at once. */
  mirror(live: AnsweredRequest): void {
    if (!this.sampled(live.session)) return;
    if (this.spentUsd >= this.options.capUsd) {
      this.skippedCap += 1;
      return;
    }
    if (this.inFlight >= this.options.maxInFlight) {
      this.skippedBusy += 1;
      return;
    }
    this.inFlight += 1;
    const work = this.replay(live).finally(() => {
      this.inFlight -= 1;
      this.pending.delete(work);
    });
    this.pending.add(work);
  }

  private async replay(live: AnsweredRequest): Promise<void> {
    const started = performance.now();
    const entry: ShadowRecord = {
      at: new Date().toISOString(),
      session: live.session,
      pack: this.options.shadowPack,
      status: 0,
      latencyMs: 0,
      costUsd: 0,
      models: [],
      live: {
        status: live.status,
        latencyMs: Math.round(live.latencyMs),
        costUsd: live.cost.costUsd,
        models: live.cost.models,
      },
    };
    try {
      const answer = await this.options.conversations.run(live.session, (instance) =>
        forwardChat(instance, { ...live.body, stream: false }, this.options.timeoutMs),
      );
      Object.assign(entry, { status: answer.status, costUsd: answer.cost.costUsd, models: answer.cost.models });
      if (answer.status !== 200) entry.error = answer.text.slice(0, 300);
    } catch (error) {
      entry.status = 502;
      entry.error = (error as Error).message.slice(0, 300);
    }
    entry.latencyMs = Math.round(performance.now() - started);
    this.spentUsd += entry.costUsd;
    if (this.records.length < this.recordLimit) this.records.push(entry);
    this.options.record(entry);
  }

  /** Waits for mirrored requests still running. */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  summary(): ShadowSummary {
    return {
      shadowPack: this.options.shadowPack,
      sampleRate: this.options.sampleRate,
      capUsd: this.options.capUsd,
      skippedBusy: this.skippedBusy,
      skippedCap: this.skippedCap,
      live: side(this.records.map((record) => record.live)),
      shadow: side(this.records),
    };
  }
}

function side(
  entries: readonly { status: number; latencyMs: number; costUsd: number; models: string[] }[],
): ShadowSide {
  const latencies = entries.map((entry) => entry.latencyMs).sort((a, b) => a - b);
  const at = (share: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]! : 0;
  const costUsd = entries.reduce((sum, entry) => sum + entry.costUsd, 0);
  const models: Record<string, number> = {};
  for (const entry of entries) for (const model of entry.models) models[model] = (models[model] ?? 0) + 1;
  return {
    requests: entries.length,
    failed: entries.filter((entry) => entry.status !== 200).length,
    latencyP50Ms: at(0.5),
    latencyP99Ms: at(0.99),
    costUsd: Math.round(costUsd * 1e9) / 1e9,
    costPerRequestUsd: entries.length ? Math.round((costUsd / entries.length) * 1e9) / 1e9 : 0,
    models,
  };
}
