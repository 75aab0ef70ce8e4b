// One chat request forwarded to a policy instance's agent endpoint, with what its gateway spent
// meanwhile: the live answer and a shadow mirror go through the same path.
import type { ServedInstance } from './instance-pool.ts';
import { servedModel } from './served-model.ts';
import { requestCost, type RequestCost } from './request-meter.ts';

export interface ForwardedAnswer {
  status: number;
  contentType: string;
  text: string;
  cost: RequestCost;
}

export async function forwardChat(
  instance: ServedInstance,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<ForwardedAnswer> {
  const before = instance.calls().length;
  const forwarded = await fetch(`${instance.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, model: servedModel }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await forwarded.text();
  return {
    status: forwarded.status,
    contentType: forwarded.headers.get('content-type') ?? 'application/json',
    text,
    cost: requestCost(instance.calls().slice(before)),
  };
}
