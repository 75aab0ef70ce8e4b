// definePolicy: checks the policy's shape where the miner wrote it, so a typo fails at load time
// with a readable sentence instead of on the first agent request.
import type { Policy } from './types.ts';

export function definePolicy<P extends Policy>(policy: P): P {
  if (typeof policy !== 'object' || policy === null) {
    throw new TypeError('definePolicy expects an object such as { async complete(request, ctx) { … } }');
  }
  if (typeof policy.complete !== 'function') {
    throw new TypeError(
      'definePolicy: the policy has no complete(request, ctx) function; add one that returns a chat completion',
    );
  }
  return policy;
}
