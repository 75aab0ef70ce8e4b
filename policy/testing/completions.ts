// Canned chat completions and call errors for scripted hosts.
import type { CallAnswer } from './fake-host.ts';

export function textReply(model: string, content: string): CallAnswer {
  return {
    ok: true,
    body: {
      id: `cmpl-${model}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    },
  };
}

/** A reply calling one tool; pass a string to send arguments verbatim (e.g. malformed JSON). */
export function toolReply(model: string, name: string, args: Record<string, unknown> | string): CallAnswer {
  return {
    ok: true,
    body: {
      id: `cmpl-${model}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call-${model}`,
                type: 'function',
                function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    },
  };
}

export function errorReply(
  status: number,
  type: string,
  retryable: boolean,
  message = `${type} (${status})`,
): CallAnswer {
  return { ok: false, error: { status, type, message, retryable } };
}

export const rateLimited = (): CallAnswer => errorReply(429, 'rate_limited', true);
export const upstreamError = (): CallAnswer => errorReply(502, 'upstream_error', true);
export const badRequest = (): CallAnswer => errorReply(400, 'invalid_request', false);
