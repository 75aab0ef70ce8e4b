// The probe's upstream: an OpenAI client whose fetch answers every call itself — no model, no
// money — the way a real upstream would: random ids, the current time, a system fingerprint, usage
// sized from the request (so the gateway's meter charges it as it would a real call, against the
// probe's own cap; nothing is paid), text in a working model's register streamed a few words a
// chunk, and when the request offers tools, the step a model would take (list the directory, then
// read the files the listing showed). Nothing in it belongs to any scenario. Whatever the policy passes on to the agent
// should come from these answers;
// whatever the policy sends here is kept (bounded) to be searched for scenario content.
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';

/** What the policy sent, as text: every message's content and tool-call arguments. Bounded. */
export interface SentRequests {
  count: number;
  text: string;
}

const maxKeptChars = 2 * 1024 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function messagesText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(message)) continue;
    if (typeof message.content === 'string') parts.push(message.content);
    else if (Array.isArray(message.content))
      for (const part of message.content) if (isRecord(part) && typeof part.text === 'string') parts.push(part.text);
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (isRecord(call) && isRecord(call.function) && typeof call.function.arguments === 'string')
        parts.push(call.function.arguments);
    }
  }
  return parts.join('\n');
}

// What a working model says before a tool call, in the register real models use; `{file}` is the file it
// is about to read. None of it belongs to any scenario.
const openingWords = [
  "I'll start by exploring the working directory to see what we're working with.",
  'Let me first look at the files that are available.',
  "First, I'll get an overview of the project layout.",
];
const readingWords = [
  'Let me look at `{file}` to understand its structure.',
  'Now let me check `{file}`.',
  "I'll read `{file}` next to see the details.",
  'Let me inspect `{file}` more closely.',
  'Next, let me examine `{file}`.',
];
const closingWords = "I've looked through the relevant files. Let me know if you'd like me to go further.";

/** File names a listing or a message mentions (with an extension), most recent last. */
function mentionedFiles(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const found: string[] = [];
  for (const message of messages.slice(-6)) {
    if (!isRecord(message) || message.role !== 'tool' || typeof message.content !== 'string') continue;
    for (const match of message.content
      .slice(0, 20_000)
      .matchAll(/(?:^|\s)((?:[\w.-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8})(?=\s|$)/gm))
      found.push(match[1]!);
  }
  return [...new Set(found)];
}

function toolNames(body: Record<string, unknown>): string[] {
  return (Array.isArray(body.tools) ? body.tools : [])
    .filter(isRecord)
    .map((tool) => (isRecord(tool.function) ? String(tool.function.name ?? '') : ''))
    .filter(Boolean);
}

/**
 * The step a model would take at this point of the conversation: list the directory, then read the
 * files the listing showed one by one (terminal `cat` or read_file), then stop. With no tools: text only.
 */
function nextStep(body: Record<string, unknown>, step: number, id: string, voice: Voice) {
  const tools = toolNames(body);
  const pick = (list: readonly string[]) => list[step % list.length]!;
  if (tools.length === 0) return { text: closingWords, toolCall: undefined };
  const toolMessages = (Array.isArray(body.messages) ? body.messages : []).filter(
    (message) => isRecord(message) && message.role === 'tool',
  ).length;
  const files = mentionedFiles(body);
  const terminal = tools.includes('terminal');
  if (toolMessages === 0 || files.length === 0) {
    const name = terminal ? 'terminal' : tools[0]!;
    return {
      text: pick(voice.opening),
      toolCall: {
        id,
        type: 'function' as const,
        function: { name, arguments: name === 'terminal' ? JSON.stringify({ command: 'ls -la' }) : '{}' },
      },
    };
  }
  const file = files[toolMessages % files.length]!;
  const name = tools.includes('read_file') ? 'read_file' : terminal ? 'terminal' : tools[0]!;
  const args = name === 'read_file' ? { path: file } : name === 'terminal' ? { command: `cat ${file}` } : {};
  return {
    text: pick(voice.reading).replace('{file}', file),
    toolCall: { id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } },
  };
}

/**
 * Usage a real upstream would report: about four characters a token of the prompt's content (under
 * the gateway's estimate, as a real tokenizer's count is), a growing cached prefix, and never more
 * completion tokens than max_tokens allowed.
 */
function plausibleUsage(promptChars: number, completionTokens: number, step: number) {
  const prompt = Math.max(8, Math.ceil(promptChars / 4));
  const completion = Math.max(1, completionTokens);
  const cached = step > 1 ? Math.floor((prompt * 0.7) / 64) * 64 : 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Another register for the same steps (bench/coaching-corpus.ts's stand-in for a real model in a run). */
export interface Voice {
  opening: readonly string[];
  reading: readonly string[];
}

export function createBlandUpstream(voice: Voice = { opening: openingWords, reading: readingWords }): {
  client: OpenAI;
  sent(): SentRequests;
} {
  let count = 0;
  const fingerprint = `fp_${hex(5)}`;
  const kept: string[] = [];
  let keptChars = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(String(init?.body ?? '{}'));
      body = isRecord(parsed) ? parsed : {};
    } catch {
      return Response.json(
        { error: { type: 'invalid_request_error', message: 'the body is not JSON' } },
        { status: 400 },
      );
    }
    count += 1;
    const text = messagesText(body);
    if (keptChars < maxKeptChars) {
      kept.push(text.slice(0, maxKeptChars - keptChars));
      keptChars += Math.min(text.length, maxKeptChars - keptChars);
    }
    const id = `chatcmpl-${hex(12)}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(body.model ?? 'unknown');
    const planned = nextStep(body, count, `call_${hex(12)}`, voice);
    const answers = Math.min(8, Math.max(1, typeof body.n === 'number' ? Math.floor(body.n) : 1));
    // An answer longer than max_tokens is cut there, as a real model's is: text only, finish_reason length.
    const limit = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? Math.floor(body.max_tokens) : Infinity;
    const wanted = Math.ceil(
      (planned.text.length + (planned.toolCall ? planned.toolCall.function.arguments.length + 20 : 0)) / 4,
    );
    const cut = wanted > limit;
    const step = cut ? { text: planned.text.slice(0, limit * 4), toolCall: undefined } : planned;
    const toolCall = step.toolCall;
    const finish = cut ? 'length' : toolCall ? 'tool_calls' : 'stop';
    const message = { role: 'assistant', content: step.text, ...(toolCall ? { tool_calls: [toolCall] } : {}) };
    const usage = plausibleUsage(
      JSON.stringify([body.messages ?? null, body.tools ?? null]).length,
      Math.min(wanted, limit) * answers,
      count,
    );
    const common = { id, created, model, system_fingerprint: fingerprint };
    if (body.stream === true) {
      const chunks: unknown[] = [];
      for (let index = 0; index < answers; index++) {
        chunks.push({
          ...common,
          object: 'chat.completion.chunk',
          choices: [{ index, delta: { role: 'assistant', content: '' }, finish_reason: null }],
        });
        // Real upstreams stream text a few words at a time.
        for (const piece of step.text.match(/\S+\s*/g) ?? [])
          chunks.push({
            ...common,
            object: 'chat.completion.chunk',
            choices: [{ index, delta: { content: piece }, finish_reason: null }],
          });
        if (toolCall)
          chunks.push({
            ...common,
            object: 'chat.completion.chunk',
            choices: [{ index, delta: { tool_calls: [{ index: 0, ...toolCall }] }, finish_reason: null }],
          });
        chunks.push({
          ...common,
          object: 'chat.completion.chunk',
          choices: [{ index, delta: {}, finish_reason: finish }],
        });
      }
      chunks.push({ ...common, object: 'chat.completion.chunk', choices: [], usage });
      const sse = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
      return new Response(sse, {
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'x-request-id': `req_${hex(12)}` },
      });
    }
    const choices = Array.from({ length: answers }, (_, index) => ({
      index,
      message,
      logprobs: null,
      finish_reason: finish,
    }));
    return Response.json(
      { ...common, object: 'chat.completion', choices, usage },
      { status: 200, headers: { 'x-request-id': `req_${hex(12)}` } },
    );
  };
  const client = new OpenAI({
    baseURL: 'http://probe.invalid/v1',
    apiKey: 'the-probe-needs-no-key',
    maxRetries: 0,
    fetch: fetch as never,
  });
  return { client, sent: () => ({ count, text: kept.join('\n') }) };
}
