// The prompt-token bound a reservation is made from: an upper bound of the prompt tokens the
// upstream can bill for a request body, for the tokenizer family of every allowlisted model
// (byte-level BPE: DeepSeek, Qwen, GLM, Kimi). The live rule's character-class estimate
// (prompt-estimate.ts) is not one: astral-plane characters were billed 3.12× it and runs of one
// letter 1.42× (issue 36). The charge is still the live rule's settlement from usage; only what is
// held before the call goes out changes, so Σ charged ≤ cap under any content and any schedule.
//
// Why the bound holds (gateway/meter/README.md, "The bound"):
// 1. A byte-level BPE tokenizer turns text into tokens each of which covers at least one byte of
//    the text's UTF-8 encoding (merges only join bytes; no token is empty), so text of B bytes is
//    at most B tokens, whatever the characters (an astral character is 4 bytes, at most 4 tokens).
// 2. The text the upstream tokenizes is its chat template applied to the body's billed fields.
//    Every string of the body (contents, names, tool arguments, tool schemas) appears in the
//    compact JSON we count in at least as many bytes as the template writes it with: JSON escapes
//    only lengthen (`\n` is 2 bytes for 1), and non-ASCII is written raw, as templates do.
// 3. Templates may re-serialize structured fields (tools, tool-call arguments given as objects)
//    with a space after each `,` and `:` (Python json.dumps, Jinja `tojson`): one byte per such
//    character, counted here as one token each (an over-count for those inside strings).
// 4. The template's own text — role headers, special tokens, the tool-use preamble, a default
//    system prompt — is bounded per message, per tool call, per tool and per request by the
//    overheads below (the longest we found: a tool-use preamble of about 200 tokens).
// 5. Content parts that are not text (image_url, input_audio, file) are billed by the upstream at
//    rates the body's bytes do not bound (an image URL of 40 bytes can be thousands of tokens): the
//    gateway refuses them (nonTextContentPart).
// An upstream that bills beyond this bound is out of its tokenizer's contract: the meter books the
// excess as the upstream's (never charged), closes the episode and the gateway cancels its calls.

/** Template text per message (role header, start/end special tokens, separators). */
export const messageOverheadTokens = 32;
/** Template text per tool call in an assistant message (call markers, the call id as rendered). */
export const toolCallOverheadTokens = 32;
/** Template text per tool declaration (a per-tool line or wrapper of the tool-use preamble). */
export const toolOverheadTokens = 32;
/** Template text per request: the tool-use preamble, a default system prompt, the generation prompt. */
export const requestOverheadTokens = 512;

export interface PromptBoundParts {
  /** UTF-8 bytes of the billed part of the body as compact JSON (splitBilledBody). */
  billedBytes: number;
  /** `,` and `:` bytes in it: each may gain a space when a template re-serializes it. */
  separatorBytes: number;
  messages: number;
  toolCalls: number;
  tools: number;
}

const comma = 0x2c;
const colon = 0x3a;

function countSeparators(bytes: Buffer): number {
  let separators = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === comma || byte === colon) separators += 1;
  }
  return separators;
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** The counts the bound is made of; one linear pass over the billed JSON. */
export function promptBoundParts(body: Record<string, unknown>, billedJson: string): PromptBoundParts {
  const bytes = Buffer.from(billedJson, 'utf8');
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let toolCalls = 0;
  for (const message of messages) {
    if (message !== null && typeof message === 'object') {
      toolCalls += lengthOf((message as { tool_calls?: unknown }).tool_calls);
      if ((message as { function_call?: unknown }).function_call) toolCalls += 1;
    }
  }
  return {
    billedBytes: bytes.length,
    separatorBytes: countSeparators(bytes),
    messages: messages.length,
    toolCalls,
    tools: lengthOf(body.tools) + lengthOf(body.functions),
  };
}

export function promptBoundFromParts(parts: PromptBoundParts): number {
  return (
    parts.billedBytes +
    parts.separatorBytes +
    parts.messages * messageOverheadTokens +
    parts.toolCalls * toolCallOverheadTokens +
    parts.tools * toolOverheadTokens +
    requestOverheadTokens
  );
}

/** The most prompt tokens the upstream can bill for `body`, whose billed part is `billedJson`. */
export function promptBoundTokens(body: Record<string, unknown>, billedJson: string): number {
  return promptBoundFromParts(promptBoundParts(body, billedJson));
}

const textPartTypes: ReadonlySet<string> = new Set(['text', 'input_text', 'output_text', 'refusal']);

/**
 * The first content part whose billing the bound cannot know (an image, audio, a file), as
 * `messages[i].content[j] (type)`; undefined when every part is text.
 */
export function nonTextContentPart(body: Record<string, unknown>): string | undefined {
  if (!Array.isArray(body.messages)) return undefined;
  for (const [messageIndex, message] of body.messages.entries()) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const [partIndex, part] of content.entries()) {
      const type = (part as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && !textPartTypes.has(type))
        return `messages[${messageIndex}].content[${partIndex}] (type "${type}")`;
    }
  }
  return undefined;
}
