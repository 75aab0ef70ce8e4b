// The metered model gateway of one episode (scenario run) (gateway/meter/README.md): allowlist; a
// reservation made synchronously before anything goes upstream from the prompt's token bound
// (prompt-bound.ts: a true upper bound, so Σ charged ≤ cap), max_tokens clamped to what fits,
// refused (402 `cap`) below 64 tokens; settled from usage by the live rule. An upstream billing
// beyond the bound is its fault: the excess is not charged, the episode closes and the calls in
// flight are cancelled. Calls the policy leaves (its client goes, or the episode ends with them
// running: abandonInFlight) are the policy's: booked `abandoned`, never upstream failures. Upstream
// 429/503 are retried here; the call log gets a row when a call starts and one when it ends. The
// policy host's in-process ctx.call and the HTTP face (gateway-server.ts) both come through here.
import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import type { ChatUpstream } from './upstream/chat-upstream.ts';
import { meterPrices, type Allowlist, type ModelEntry } from './catalog/allowlist.ts';
import { BudgetLedger } from './budget-ledger.ts';
import { EpisodeMeter, type Budget, type Settlement } from './meter/episode-meter.ts';
import { promptEstimateOfBilledJson } from './meter/prompt-estimate.ts';
import { joinJsonObjects } from '../common/join-json-objects.ts';
import { promptBoundTokens } from './meter/prompt-bound.ts';
import { CallCut, cutOf, InFlightCalls } from './in-flight-calls.ts';
import {
  GatewayError,
  fromUpstreamError,
  isUpstreamInfrastructureFailure,
  upstreamRequestIdOf,
  wasRefusedUnbilled,
} from './gateway-error.ts';
import { reportedTokens, type CallEndRow, type CallLog } from './call-log.ts';
import type { RequestGuard } from './injection/injection-guard.ts';
import { recordInfraError, recordModelCall } from '../common/metrics.ts';
import { checkRequest } from './request-checks.ts';
import {
  AttemptsError,
  defaultRetryDelaysMs,
  linkedAbort,
  notSentUpstream,
  requestOptions,
  sendWithRetries,
  upstreamRequest,
  withRequestId,
  type CallOutcome,
  type ChatBody,
  type PreparedCall,
} from './upstream-attempt.ts';

export interface GatewayOptions {
  allowlist: Allowlist;
  upstream: ChatUpstream;
  capUsd: number;
  callLog: CallLog;
  /** The evaluation seed, passed upstream so simulated (and seed-honouring real) models vary with it. */
  seed: number;
  /**
   * Which try of the scenario this episode is (the workflow's round and the activity's attempt),
   * sent upstream as `x-trl-try`: the sim fleet rolls its transient faults anew for every try, as a
   * real provider's outages come and go; real upstreams ignore it.
   */
  tryKey?: string;
  /** Back-off before each retry of an upstream 429/503; its length is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** Reads every request before anything is reserved; a refusal it returns is the call's (gateway/injection/). */
  requestGuard?: RequestGuard;
  /** `false`: a rehearsal whose upstream is no model and costs nothing (the probe): its calls stay out of the
   * validator's model-call and spend metrics, which count what the models were really paid. */
  recordMetrics?: boolean;
}

export interface CallOptions {
  model: string;
  /** Overrides the body's max_tokens / max_completion_tokens (the SDK's ctx.call option). */
  maxTokens?: number;
  branch?: string;
  requestId?: string;
  /** Aborts the upstream call (a client gone); the call is then charged as failed after sending. */
  signal?: AbortSignal;
}

// Stops the relay copy of a streamed answer in the log from growing without bound.
const maxLoggedChunks = 10_000;

export class ModelGateway {
  readonly meter: EpisodeMeter;
  /** The meter in dollars, for the policy host and the spend ledger. */
  readonly ledger: BudgetLedger;
  private readonly models: Map<string, ModelEntry>;
  private readonly retryDelaysMs: readonly number[];
  /** Calls refused for the cap (the scenario's budget_exhausted signal). */
  budgetRefusals = 0;
  /** Calls that failed upstream for the infrastructure's reasons after the gateway's retries, and calls the upstream
   * billed beyond their bound (the scenario's infra_error signal). */
  upstreamFailures = 0;
  /** Calls the policy abandoned (cut when its client went or when the episode ended): the policy's, not the upstream's.
   * */
  abandonedCalls = 0;
  /**
   * Whether the agent is waiting for the policy's answer (set by the policy run once its agent
   * endpoint is up). An upstream failure while it is not — between turns, after the last — is on a
   * call nobody waited for: booked, not counted as the infrastructure's.
   */
  agentWaiting: (() => boolean) | undefined;
  private readonly inFlight = new InFlightCalls();

  constructor(private readonly options: GatewayOptions) {
    this.meter = new EpisodeMeter(options.capUsd);
    this.ledger = new BudgetLedger(this.meter);
    this.models = new Map(options.allowlist.models.map((m) => [m.id, m]));
    this.retryDelaysMs = options.retryDelaysMs ?? defaultRetryDelaysMs;
  }

  /** Calls sent and not yet booked. */
  get callsInFlight(): number {
    return this.inFlight.size;
  }

  modelList(): ModelEntry[] {
    return [...this.models.values()];
  }

  /** The `/v1/budget` body. */
  budget(): Budget {
    return this.meter.budget();
  }

  /** The `x-trajrl-budget-remaining-usd` header value. */
  remainingUsdHeader(): string {
    return this.meter.remainingUsdHeader();
  }

  // Synchronous from the checks to the reservation and the start row: no other call slips in between.
  private prepare(body: ChatBody, options: CallOptions, streamed: boolean): PreparedCall {
    const callId = randomUUID();
    const identity = { callId, requestId: options.requestId, branch: options.branch, model: options.model, streamed };
    const refuse = (error: GatewayError, promptEstimate?: number, promptBound?: number): never => {
      if (error.type === 'cap') this.budgetRefusals += 1;
      this.options.callLog.refused({
        ...identity,
        errorType: error.type,
        message: error.message,
        promptEstimateTokens: promptEstimate,
        promptBoundTokens: promptBound,
        spentAfterUsd: this.ledger.spentUsd,
      });
      throw error;
    };
    const checked = checkRequest(body, {
      models: this.models,
      modelId: options.model,
      maxTokensOverride: options.maxTokens,
      guard: this.options.requestGuard,
      callId,
    });
    if (!checked.ok) return refuse(checked.error);
    const { model, split, maxTokens } = checked;
    // The live rule's estimate is logged beside the bound the reservation is made from.
    const estimate = promptEstimateOfBilledJson(split.billedJson);
    const bound = promptBoundTokens(body, split.billedJson);
    const reserved = this.meter.reserve({
      prices: meterPrices(model),
      promptBoundTokens: bound,
      maxTokens,
      n: checked.answerCount,
    });
    if (!reserved.ok) return refuse(new GatewayError(402, 'cap', reserved.message, false), estimate, bound);
    const upstreamBody = {
      ...notSentUpstream(body),
      model: model.id,
      max_tokens: reserved.maxTokens,
      seed: this.options.seed,
    };
    this.options.callLog.started(
      {
        ...identity,
        promptEstimateTokens: estimate,
        promptBoundTokens: bound,
        answerCount: checked.answerCount,
        maxTokens: reserved.maxTokens,
        clamped: reserved.clamped,
        reservedUsd: reserved.reservedUsd,
        request: body,
      },
      joinJsonObjects(split.billedJson, JSON.stringify(split.knobs)),
    );
    const upstreamKnobs = {
      ...notSentUpstream(split.knobs),
      model: model.id,
      max_tokens: reserved.maxTokens,
      seed: this.options.seed,
    };
    const upstreamText = (extra: Record<string, unknown>) =>
      joinJsonObjects(split.billedJson, JSON.stringify({ ...upstreamKnobs, ...extra }));
    const prepared: PreparedCall = {
      callId,
      model,
      identity,
      reservationId: reserved.reservationId,
      maxTokens: reserved.maxTokens,
      clamped: reserved.clamped,
      reservedUsd: reserved.reservedUsd,
      upstreamBody,
      upstreamText,
      started: performance.now(),
      abort: linkedAbort(options.signal),
    };
    // Until it is booked, the validator can cut it (abandonInFlight, an overbilling upstream); a
    // cut call whose own end never comes (a stream nobody reads) is booked for it.
    this.inFlight.add(callId, prepared.abort, (cut) =>
      this.finish(prepared, { status: 'error', errorType: cut.type, failedAfterSend: true, attempts: 1 }),
    );
    return prepared;
  }

  /**
   * Cuts every call still in flight as the policy's (the episode ended with them running) and
   * waits until each is booked: `abandoned`, charged its usage or its reservation. Returns how many.
   */
  abandonInFlight(reason: string): Promise<number> {
    return this.inFlight.cutAll(new CallCut('abandoned', `abandoned by the policy: ${reason}`));
  }

  private finish(prepared: PreparedCall, outcome: CallOutcome): void {
    // Booked once: a call cut and booked by the validator may still end by itself later.
    if (!this.inFlight.end(prepared.callId)) return;
    if (outcome.errorType === 'abandoned') this.abandonedCalls += 1;
    let settlement: Pick<Settlement, 'costUsd' | 'overshootUsd'> & { basis: CallEndRow['basis'] };
    if (outcome.release && outcome.usage === undefined) {
      this.meter.release(prepared.reservationId);
      settlement = { costUsd: 0, overshootUsd: 0, basis: 'released' };
    } else {
      settlement = this.meter.settle(prepared.reservationId, outcome.usage, {
        failedAfterSend: outcome.failedAfterSend ?? false,
      });
      if (settlement.overshootUsd > 0) this.upstreamOverbilled();
    }
    const latencyMs = Math.round(performance.now() - prepared.started);
    if (this.options.recordMetrics !== false)
      recordModelCall({
        model: prepared.model.id,
        outcome: outcome.status === 'ok' ? 'ok' : (outcome.errorType ?? 'error'),
        costUsd: settlement.costUsd,
        latencyMs,
      });
    this.options.callLog.ended({
      ...prepared.identity,
      status: outcome.status,
      errorType: outcome.errorType,
      upstreamRequestId: outcome.upstreamRequestId,
      attempts: outcome.attempts,
      basis: settlement.basis,
      ...reportedTokens(outcome.usage),
      maxTokens: prepared.maxTokens,
      clamped: prepared.clamped,
      reservedUsd: prepared.reservedUsd,
      costUsd: settlement.costUsd,
      overshootUsd: settlement.overshootUsd,
      spentAfterUsd: this.ledger.spentUsd,
      latencyMs,
      response: outcome.response,
    });
  }

  /** Counts an upstream failure as the infrastructure's — unless nobody was waiting for the call. */
  private countUpstreamFailure(type: string): void {
    if (this.agentWaiting && !this.agentWaiting()) return;
    this.upstreamFailures += 1;
    recordInfraError('gateway', type);
  }

  /** The upstream billed a call beyond its bound: its fault; nothing more is admitted and the calls in flight are
   * cancelled (each charged at most its reservation), so the episode never passes its cap. */
  private upstreamOverbilled(): void {
    this.upstreamFailures += 1;
    recordInfraError('gateway', 'upstream_overbilled');
    void this.inFlight.cutAll(new CallCut('cancelled', 'cancelled: the upstream billed a call beyond its bound'));
  }

  private failed(prepared: PreparedCall, wrapped: unknown, extra: Partial<CallOutcome> = {}): GatewayError {
    const { cause, attempts } = wrapped instanceof AttemptsError ? wrapped : { cause: wrapped, attempts: 1 };
    if (prepared.abort.signal.aborted) {
      // Cut by the validator or left by the policy: charged its reservation, never the upstream's failure.
      const cut = cutOf(prepared.abort.signal);
      this.finish(prepared, { status: 'error', errorType: cut.type, failedAfterSend: true, attempts, ...extra });
      return new GatewayError(499, cut.type, cut.message, false);
    }
    const mapped = fromUpstreamError(cause, prepared.model.id);
    const release = wasRefusedUnbilled(cause);
    this.finish(prepared, {
      status: 'error',
      errorType: mapped.type,
      release,
      failedAfterSend: !release,
      upstreamRequestId: upstreamRequestIdOf(cause),
      attempts,
      ...extra,
    });
    if (isUpstreamInfrastructureFailure(mapped)) this.countUpstreamFailure(mapped.type);
    return mapped;
  }

  /** A non-streamed chat completion through the meter. Throws GatewayError. */
  async complete(body: ChatBody, options: CallOptions): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    const prepared = this.prepare(body, options, false);
    let sent: { value: { data: OpenAI.Chat.Completions.ChatCompletion; requestId?: string }; attempts: number };
    try {
      sent = await sendWithRetries(prepared, this.retryDelaysMs, (attempt) =>
        withRequestId(
          this.options.upstream.chat.completions.create(
            upstreamRequest(prepared, { stream: false }) as never,
            requestOptions(prepared, attempt, this.options.tryKey),
          ) as never,
        ),
      );
    } catch (error) {
      throw this.failed(prepared, error);
    }
    const completion = sent.value.data;
    const upstreamRequestId = sent.value.requestId ?? (typeof completion?.id === 'string' ? completion.id : undefined);
    this.finish(prepared, {
      status: 'ok',
      usage: completion?.usage ?? undefined,
      upstreamRequestId,
      attempts: sent.attempts,
      response: completion,
    });
    return completion;
  }

  /** A streamed chat completion: chunks are relayed as they come; usage is always requested upstream. */
  async *stream(body: ChatBody, options: CallOptions): AsyncGenerator<OpenAI.Chat.Completions.ChatCompletionChunk> {
    const prepared = this.prepare(body, options, true);
    let sent: {
      value: { data: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>; requestId?: string };
      attempts: number;
    };
    try {
      sent = await sendWithRetries(prepared, this.retryDelaysMs, (attempt) =>
        withRequestId(
          this.options.upstream.chat.completions.create(
            upstreamRequest(prepared, { stream: true, stream_options: { include_usage: true } }) as never,
            requestOptions(prepared, attempt, this.options.tryKey),
          ) as never,
        ),
      );
    } catch (error) {
      throw this.failed(prepared, error);
    }
    let usage: unknown;
    let upstreamRequestId = sent.value.requestId;
    let outcome: CallOutcome | undefined;
    const chunks: unknown[] = [];
    // What the stream delivered, with how it ended: settled from its usage when it came, else at the reservation.
    const delivered = (errorType?: string): CallOutcome =>
      errorType === undefined
        ? { status: 'ok', usage, upstreamRequestId, attempts: sent.attempts, response: chunks }
        : {
            status: 'error',
            errorType,
            usage,
            failedAfterSend: true,
            upstreamRequestId,
            attempts: sent.attempts,
            response: chunks,
          };
    try {
      for await (const chunk of sent.value.data) {
        if (chunk.usage) usage = chunk.usage;
        upstreamRequestId ??= typeof chunk.id === 'string' ? chunk.id : undefined;
        if (chunks.length < maxLoggedChunks) chunks.push(chunk);
        yield chunk;
      }
      // An aborted upstream stream ends quietly (the client's iterator just returns): not a success.
      outcome = delivered(prepared.abort.signal.aborted ? cutOf(prepared.abort.signal).type : undefined);
    } catch (error) {
      const cut = prepared.abort.signal.aborted ? cutOf(prepared.abort.signal) : undefined;
      const mapped = cut
        ? new GatewayError(499, cut.type, cut.message, false)
        : fromUpstreamError(error, prepared.model.id);
      outcome = delivered(mapped.type);
      if (isUpstreamInfrastructureFailure(mapped)) this.countUpstreamFailure(mapped.type);
      throw mapped;
    } finally {
      // Success, a broken stream, or the consumer stopping early: the call is settled once, from
      // usage when it came, else at its reservation (the answer may have been billed in full).
      if (!outcome) {
        // The consumer stopped reading: the policy left the call.
        if (!prepared.abort.signal.aborted)
          prepared.abort.abort(new CallCut('abandoned', 'the stream was not read to its end'));
        outcome = delivered(cutOf(prepared.abort.signal).type);
      }
      this.finish(prepared, outcome);
    }
  }
}
