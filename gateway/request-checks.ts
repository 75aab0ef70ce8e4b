// What the gateway checks of a request before it reserves anything, in order: the model is on the
// allowlist, there are messages, the request guard (gateway/injection/) lets it through, `n` and the
// length fields are well formed, every content part is text (the prompt bound counts text bytes),
// and the body serializes to JSON (the billed part, serialized once, here). The first refusal wins.
import type { ModelEntry } from './catalog/allowlist.ts';
import { GatewayError, type GatewayErrorType } from './gateway-error.ts';
import type { RequestGuard } from './injection/injection-guard.ts';
import { nonTextContentPart } from './meter/prompt-bound.ts';
import { splitBilledBody, type SplitBody } from './meter/prompt-estimate.ts';
import { requestedAnswerCount, requestedMaxTokens } from './meter/request-limits.ts';
import type { ChatBody } from './upstream-attempt.ts';

export type CheckedRequest =
  | { ok: true; model: ModelEntry; answerCount: number; maxTokens: number; split: SplitBody }
  | { ok: false; error: GatewayError };

export function checkRequest(
  body: ChatBody,
  request: {
    models: ReadonlyMap<string, ModelEntry>;
    modelId: string;
    /** The SDK's ctx.call option: overrides the body's max_tokens / max_completion_tokens. */
    maxTokensOverride?: number;
    guard?: RequestGuard;
    callId: string;
  },
): CheckedRequest {
  const refuse = (status: number, type: GatewayErrorType, message: string): CheckedRequest => ({
    ok: false,
    error: new GatewayError(status, type, message, false),
  });
  const model = request.models.get(request.modelId);
  if (!model)
    return refuse(
      400,
      'model_not_allowed',
      `model "${request.modelId}" is not on the allowlist: ${[...request.models.keys()].join(', ')}`,
    );
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return refuse(400, 'invalid_request', 'messages must be a non-empty array');
  const guarded = request.guard?.check(body, request.callId);
  if (guarded) return { ok: false, error: guarded };
  const answers = requestedAnswerCount(body);
  if (!answers.ok) return refuse(400, 'invalid_request', answers.message);
  const length = requestedMaxTokens(body);
  if (!length.ok) return refuse(400, 'invalid_request', length.message);
  const override = request.maxTokensOverride;
  const maxTokens = override !== undefined && override >= 1 ? Math.floor(override) : length.maxTokens;
  const unbounded = nonTextContentPart(body);
  if (unbounded)
    return refuse(
      400,
      'invalid_request',
      `${unbounded}: only text content parts are accepted — the meter's prompt bound counts bytes of text, and ` +
        `an image, audio or file is billed at rates its bytes do not bound (gateway/meter/README.md)`,
    );
  const split = splitOrNothing(body);
  if (!split) return refuse(400, 'invalid_request', 'the request body is not JSON-serializable');
  return { ok: true, model, answerCount: answers.answerCount, maxTokens, split };
}

/** A body that did not come from JSON (a cycle, a BigInt) cannot be serialized. */
function splitOrNothing(body: ChatBody): SplitBody | undefined {
  try {
    return splitBilledBody(body);
  } catch {
    return undefined;
  }
}
