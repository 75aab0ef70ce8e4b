// Same model as policy/examples/pin-glm-flash, but every tool result longer than 600 characters is cut
// to its first 600 with a mark: fewer prompt tokens, and the model no longer sees what the cut removed.
import { definePolicy } from 'trl-policy-sdk';

const keepChars = 600;

export default definePolicy({
  async complete(request, ctx) {
    const messages = request.messages.map((message) => {
      if (message.role !== 'tool' || typeof message.content !== 'string' || message.content.length <= keepChars)
        return message;
      const cut = message.content.length - keepChars;
      return {
        ...message,
        content: `${message.content.slice(0, keepChars)}\n[output truncated: ${cut} characters omitted]`,
      };
    });
    return ctx.call('glm-5.3-flash', { ...request, messages }, { maxTokens: 2048 });
  },
});
