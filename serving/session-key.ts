// Which conversation a request belongs to, so every turn of it reaches the same policy instance.
// The SDK's own key (policy/python/trajrl_policy/transcript.py) moves from a provisional key to the
// real one on the third turn; routing needs one key for the whole conversation, so it hashes only
// what never changes once a conversation started: its first system and first user message.
import { createHash } from 'node:crypto';

/** Characters of each message's text that go into the key (as the SDK's key bounds them). */
const keyTextChars = 6000;

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('');
  return '';
}

export function sessionKey(messages: readonly unknown[]): string {
  const first = (role: string) => {
    const found = messages.find(
      (m) => m !== null && typeof m === 'object' && (m as { role?: unknown }).role === role,
    ) as { content?: unknown } | undefined;
    return found ? messageText(found.content).slice(0, keyTextChars) : null;
  };
  return (
    'c-' +
    createHash('sha256')
      .update(JSON.stringify([first('system'), first('user')]))
      .digest('hex')
      .slice(0, 16)
  );
}
