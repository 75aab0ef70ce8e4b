// The simplest fusion policy: every request of the agent goes to one model, unchanged.
import { definePolicy } from 'trl-policy-sdk';

export default definePolicy({
  async complete(request, ctx) {
    return ctx.call('kimi-k3', request, { maxTokens: 2048 });
  },
});
