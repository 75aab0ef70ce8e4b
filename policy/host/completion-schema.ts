// What a policy must return for each request: one OpenAI chat completion. Checked here because
// policy output is hostile; anything else becomes a policy error, never a crash.
import { z } from 'zod';

const toolCallSchema = z.object({
  id: z.string().max(200),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().max(200), arguments: z.string().max(1_000_000) }),
});

export const policyCompletionSchema = z.looseObject({
  id: z.string().max(200).optional(),
  object: z.string().optional(),
  created: z.number().optional(),
  model: z.string().max(200).optional(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().int().optional(),
        message: z.looseObject({
          role: z.literal('assistant'),
          content: z.string().max(2_000_000).nullable().optional(),
          tool_calls: z.array(toolCallSchema).max(64).optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1, 'a completion needs at least one choice'),
  usage: z.unknown().optional(),
});
export type PolicyCompletion = z.infer<typeof policyCompletionSchema>;

/** Validates and normalises a policy's answer; returns a reason when it is not a completion. */
export function checkPolicyCompletion(
  body: unknown,
): { ok: true; completion: PolicyCompletion } | { ok: false; reason: string } {
  const parsed = policyCompletionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `the policy returned a malformed completion: field "${issue?.path.join('.')}" ${issue?.message}`,
    };
  }
  const completion = parsed.data;
  completion.choices = completion.choices.slice(0, 1).map((choice) => ({
    ...choice,
    index: 0,
    finish_reason: choice.finish_reason ?? (choice.message.tool_calls?.length ? 'tool_calls' : 'stop'),
  }));
  return {
    ok: true,
    completion: {
      ...completion,
      object: 'chat.completion',
      id: completion.id ?? 'chatcmpl-policy',
      created: completion.created ?? 0,
      model: completion.model ?? 'auto',
    },
  };
}
