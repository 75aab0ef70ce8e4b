// What one served request cost and which models answered it: the calls an instance's gateway made
// while the request ran (the pool runs a conversation's requests one at a time, so they are its own).
import type { MeteredCall } from './instance-pool.ts';

export interface RequestCost {
  costUsd: number;
  /** Models that answered, in the order of their first call, without repeats. */
  models: string[];
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export function requestCost(calls: readonly MeteredCall[]): RequestCost {
  const costUsd = calls.reduce((sum, call) => sum + call.costUsd, 0);
  return {
    costUsd: Math.round(costUsd * 1e9) / 1e9,
    models: [
      ...new Set(
        calls.filter((call) => call.costUsd > 0 || (call.completionTokens ?? 0) > 0).map((call) => call.model),
      ),
    ],
    calls: calls.length,
    promptTokens: calls.reduce((sum, call) => sum + (call.promptTokens ?? 0), 0),
    completionTokens: calls.reduce((sum, call) => sum + (call.completionTokens ?? 0), 0),
  };
}

/** The body's `usage`: the tokens the gateway billed for this request, and its cost. */
export function usageOf(cost: RequestCost): Record<string, unknown> {
  return {
    prompt_tokens: cost.promptTokens,
    completion_tokens: cost.completionTokens,
    total_tokens: cost.promptTokens + cost.completionTokens,
    cost_usd: cost.costUsd,
    models: cost.models,
  };
}

/** The same usage in a streamed answer: replaces the usage chunk's, or adds one before [DONE]. */
export function withStreamUsage(sseText: string, usage: Record<string, unknown>): string {
  const events = sseText.split(/\n\n/).filter((event) => event.trim() !== '');
  let replaced = false;
  let model = 'auto';
  let id = 'chatcmpl-serve';
  const rewritten = events.map((event) => {
    const data = event.replace(/^data: ?/, '');
    if (!event.startsWith('data:') || data.trim() === '[DONE]') return event;
    try {
      const chunk = JSON.parse(data) as { id?: string; model?: string; usage?: unknown };
      model = chunk.model ?? model;
      id = chunk.id ?? id;
      if (!chunk.usage) return event;
      replaced = true;
      return `data: ${JSON.stringify({ ...chunk, usage })}`;
    } catch {
      return event;
    }
  });
  if (!replaced) {
    const done = rewritten.findIndex((event) => event.replace(/^data: ?/, '').trim() === '[DONE]');
    const chunk = `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage })}`;
    rewritten.splice(done === -1 ? rewritten.length : done, 0, chunk);
  }
  return rewritten.join('\n\n') + '\n\n';
}
