// Server-sent events read from a byte stream (the upstream's streamed completion): each event's
// `event:` name and its `data:` lines joined, per the SSE framing (a blank line ends an event,
// `:` lines are comments). Linear in the bytes read; an event larger than the bound is refused,
// so an upstream that never ends a line cannot grow the gateway's memory without limit.

export interface SseEvent {
  event: string | undefined;
  data: string;
}

export class SseEventTooLargeError extends Error {
  constructor(readonly maxEventChars: number) {
    super(`the upstream sent a server-sent event over ${maxEventChars} characters`);
    this.name = 'SseEventTooLargeError';
  }
}

export const defaultMaxEventChars = 16 * 1024 * 1024;

export async function* readSseEvents(
  bytes: AsyncIterable<Uint8Array>,
  maxEventChars = defaultMaxEventChars,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let pending = '';
  let event: string | undefined;
  let data: string[] = [];
  let eventChars = 0;
  for await (const chunk of bytes) {
    // What is kept from the last chunk holds no newline: only the new text is searched, so a long
    // line arriving in many chunks is scanned once.
    const searched = pending.length;
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = pending.indexOf('\n', searched); newline >= 0; newline = pending.indexOf('\n', start)) {
      const line =
        pending.charCodeAt(newline - 1) === 13 ? pending.slice(start, newline - 1) : pending.slice(start, newline);
      start = newline + 1;
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = undefined;
        data = [];
        eventChars = 0;
        continue;
      }
      eventChars += line.length;
      if (eventChars > maxEventChars) throw new SseEventTooLargeError(maxEventChars);
      if (line.startsWith('data:')) data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      // `:` comments, `id:` and `retry:` mean nothing to a chat completion.
    }
    // Only the unfinished line is kept, once per chunk: no quadratic re-slicing of a large chunk.
    pending = pending.slice(start);
    if (eventChars + pending.length > maxEventChars) throw new SseEventTooLargeError(maxEventChars);
  }
  // An event the stream ended inside was never completed (no blank line): it is dropped, as the spec says.
}
