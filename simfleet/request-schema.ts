// The chat-completions request body, validated at the edge. Unknown fields pass through (clients such
// as Hermes send extras); known ones must have the right shape, and a bad one is named in the error.
import { z } from 'zod';
import { invalidRequest, type SimApiError } from './api-error.ts';

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const textContentSchema = z.union([z.string(), z.array(contentPartSchema)]);
const optionalContentSchema = z.union([z.string(), z.null(), z.array(contentPartSchema)]).optional();

export const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

const messageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: textContentSchema, name: z.string().optional() }),
  z.looseObject({ role: z.literal('developer'), content: textContentSchema, name: z.string().optional() }),
  z.looseObject({ role: z.literal('user'), content: textContentSchema, name: z.string().optional() }),
  z.looseObject({
    role: z.literal('assistant'),
    content: optionalContentSchema,
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).nullable().optional(),
  }),
  z.looseObject({ role: z.literal('tool'), content: textContentSchema, tool_call_id: z.string() }),
]);
export type ChatMessage = z.infer<typeof messageSchema>;

export const toolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'function names are 1-64 letters, digits, underscores or dashes'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});
export type ToolDefinition = z.infer<typeof toolSchema>;

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);

const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;

const positiveTokens = z.number().int().positive().nullable().optional();

export const chatRequestSchema = z
  .looseObject({
    model: z.string().min(1),
    messages: z.array(messageSchema).min(1, 'messages must not be empty'),
    tools: z.array(toolSchema).nullable().optional(),
    tool_choice: toolChoiceSchema.nullable().optional(),
    max_tokens: positiveTokens,
    max_completion_tokens: positiveTokens,
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    seed: z.number().int().nullable().optional(),
    n: z.literal(1, { message: 'the sim fleet returns one choice: n must be 1' }).nullable().optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
    response_format: responseFormatSchema.nullable().optional(),
  })
  .superRefine((request, context) => {
    const choice = request.tool_choice;
    if (
      choice &&
      typeof choice === 'object' &&
      !(request.tools ?? []).some((t) => t.function.name === choice.function.name)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['tool_choice'],
        message: `tool_choice names the function "${choice.function.name}", which is not in tools`,
      });
    }
  });
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** OpenAI-like parameter path: messages[0].content. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : text === '' ? String(key) : `.${String(key)}`;
  return text;
}

export function parseChatRequest(
  body: unknown,
): { ok: true; request: ChatRequest } | { ok: false; error: SimApiError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: invalidRequest('the request body must be a JSON object', null, 'invalid_json') };
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  const issue = parsed.error.issues[0]!;
  const param = formatPath(issue.path);
  return { ok: false, error: invalidRequest(`invalid field "${param || '(body)'}": ${issue.message}`, param || null) };
}

/** The completion cap the client asked for, if any (max_completion_tokens wins, as in OpenAI's API). */
export function requestedMaxTokens(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}

/** The plain text of a message's content: string as is, text parts joined. */
export function contentText(
  content: string | null | undefined | readonly { type: string; text?: string | undefined }[],
): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}
