// The metered model gateway of one scenario run: allowlist, hard budget cap (reserve → call →
// settle), typed upstream errors, and a line in the call log for every call, refused ones included.
import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import { callCostUsd, type Allowlist, type ModelEntry } from './catalog/allowlist.ts';
import { BudgetLedger } from './budget-ledger.ts';
import { planCall } from './call-plan.ts';
import { estimatePromptTokens } from './prompt-tokens.ts';
import { GatewayError, fromUpstreamError } from './gateway-error.ts';
import type { CallLog } from './call-log.ts';

export interface GatewayOptions {
  allowlist: Allowlist;
  upstream: OpenAI;
  capUsd: number;
  callLog: CallLog;
  /** The evaluation seed, passed upstream so simulated (and seed-honouring real) models vary with it. */
  seed: number;
  /** Refuse a call that could buy fewer output tokens than this. */
  floorTokens?: number;
}

export interface CallOptions {
  model: string;
  maxTokens?: number;
  branch?: string;
  requestId?: string;
}

type ChatBody = Record<string, unknown> & { messages?: unknown; tools?: unknown };

interface Usage { promptTokens: number; cachedPromptTokens: number; completionTokens: number }

function readUsage(usage: unknown): Usage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const u = usage as { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } };
  if (typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return undefined;
  const cached = typeof u.prompt_tokens_details?.cached_tokens === 'number' ? u.prompt_tokens_details.cached_tokens : 0;
  return { promptTokens: u.prompt_tokens, cachedPromptTokens: cached, completionTokens: u.completion_tokens };
}

export class ModelGateway {
  readonly ledger: BudgetLedger;
  private readonly models: Map<string, ModelEntry>;
  private readonly floorTokens: number;
  /** Calls refused because the budget could not cover them (the scenario's budget_exhausted signal). */
  budgetRefusals = 0;

  constructor(private readonly options: GatewayOptions) {
    this.ledger = new BudgetLedger(options.capUsd);
    this.models = new Map(options.allowlist.models.map((m) => [m.id, m]));
    this.floorTokens = options.floorTokens ?? 16;
  }

  modelList(): ModelEntry[] {
    return [...this.models.values()];
  }

  private prepare(body: ChatBody, options: CallOptions, streamed: boolean) {
    const callId = randomUUID();
    const model = this.models.get(options.model);
    const base = { callId, requestId: options.requestId, branch: options.branch, model: options.model, streamed, request: body };
    const refuse = (error: GatewayError, promptTokens = 0): never => {
      if (error.type === 'budget_exceeded') this.budgetRefusals += 1;
      this.options.callLog.append({ ...base, status: 'refused', errorType: error.type, promptTokens, cachedPromptTokens: 0, completionTokens: 0, reservedUsd: 0, costUsd: 0, overrunUsd: 0, spentAfterUsd: this.ledger.spentUsd, latencyMs: 0 });
      throw error;
    };
    if (!model) return refuse(new GatewayError(403, 'model_not_allowed', `model "${options.model}" is not on the allowlist: ${[...this.models.keys()].join(', ')}`, false));
    if (!Array.isArray(body.messages) || body.messages.length === 0) return refuse(new GatewayError(400, 'invalid_request', 'messages must be a non-empty array', false));
    const requested = options.maxTokens ?? (typeof body.max_tokens === 'number' ? body.max_tokens : typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : undefined);
    const promptTokens = estimatePromptTokens(body);
    // Synchronous from plan to reservation: no other call can slip in between.
    const plan = planCall({ model, promptTokens, requestedMaxTokens: requested, remainingUsd: this.ledger.remainingUsd, floorTokens: this.floorTokens });
    if (!plan.ok) return refuse(new GatewayError(plan.reason === 'budget_exceeded' ? 402 : 400, plan.reason, plan.message, false), promptTokens);
    const reservation = this.ledger.reserve(plan.reserveUsd);
    if (!reservation) return refuse(new GatewayError(402, 'budget_exceeded', 'the scenario budget is exhausted', false), promptTokens);
    const { max_completion_tokens: _ignored, ...rest } = body;
    const upstreamBody = { ...rest, model: model.id, max_tokens: plan.maxTokens, seed: this.options.seed };
    return { callId, model, base, plan, reservation, upstreamBody, started: performance.now() };
  }

  private finish(
    prepared: ReturnType<ModelGateway['prepare']>,
    usage: Usage | undefined,
    outcome: { status: 'ok' | 'error'; errorType?: string; response?: unknown; tokensMayHaveFlowed?: boolean },
  ) {
    // A call without usage is charged at its reservation whenever output may have been produced:
    // the money may have been spent. A refused upstream request (no output at all) costs nothing.
    const cost = usage ? callCostUsd(prepared.model, usage) : outcome.status === 'ok' || outcome.tokensMayHaveFlowed ? prepared.reservation.amountUsd : 0;
    const settlement = this.ledger.settle(prepared.reservation, cost);
    this.options.callLog.append({
      ...prepared.base,
      status: outcome.status,
      errorType: outcome.errorType,
      promptTokens: usage?.promptTokens ?? 0,
      cachedPromptTokens: usage?.cachedPromptTokens ?? 0,
      completionTokens: usage?.completionTokens ?? 0,
      reservedUsd: prepared.reservation.amountUsd,
      costUsd: settlement.chargedUsd,
      overrunUsd: settlement.overrunUsd,
      spentAfterUsd: this.ledger.spentUsd,
      latencyMs: Math.round(performance.now() - prepared.started),
      maxTokens: prepared.plan.maxTokens,
      response: outcome.response,
    });
  }

  /** A non-streamed chat completion through the gateway's rules. Throws GatewayError. */
  async complete(body: ChatBody, options: CallOptions): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    const prepared = this.prepare(body, options, false);
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = (await this.options.upstream.chat.completions.create({ ...prepared.upstreamBody, stream: false } as never)) as OpenAI.Chat.Completions.ChatCompletion;
    } catch (error) {
      const mapped = fromUpstreamError(error, prepared.model.id);
      this.finish(prepared, undefined, { status: 'error', errorType: mapped.type });
      throw mapped;
    }
    this.finish(prepared, readUsage(completion.usage), { status: 'ok', response: completion });
    return completion;
  }

  /** A streamed chat completion: chunks are relayed as they come; usage is always requested. */
  async *stream(body: ChatBody, options: CallOptions): AsyncGenerator<OpenAI.Chat.Completions.ChatCompletionChunk> {
    const prepared = this.prepare(body, options, true);
    let usage: Usage | undefined;
    let failed: GatewayError | undefined;
    const chunks: unknown[] = [];
    try {
      const stream = (await this.options.upstream.chat.completions.create({
        ...prepared.upstreamBody,
        stream: true,
        stream_options: { include_usage: true },
      } as never)) as unknown as AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
      for await (const chunk of stream) {
        usage = readUsage(chunk.usage) ?? usage;
        if (chunks.length < 10_000) chunks.push(chunk);
        yield chunk;
      }
    } catch (error) {
      failed = fromUpstreamError(error, prepared.model.id);
      throw failed;
    } finally {
      // Runs on success, on upstream failure and when the consumer stops early.
      this.finish(prepared, usage, failed ? { status: 'error', errorType: failed.type, response: chunks, tokensMayHaveFlowed: chunks.length > 0 } : { status: 'ok', response: chunks });
    }
  }
}
