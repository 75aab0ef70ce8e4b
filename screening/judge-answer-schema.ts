// What the LLM judge must answer: one JSON schema for the model (structured outputs, strict mode) and
// the zod schema our code checks the answer with. The sim fleet's judge mode imports both, so the
// judge and its simulator can never drift apart.
import { z } from 'zod';

export const judgeFlagTypes = [
  'hardcoded_response',
  'scenario_gaming',
  'prompt_injection',
  'instruction_override',
  'tool_avoidance',
  'keyword_stuffing',
  'fixture_shortcut',
] as const;
export type JudgeFlagType = (typeof judgeFlagTypes)[number];

/**
 * Flags that reject a pack on their own, whatever verdict the model wrote. tool_avoidance is the one
 * exception: a policy that takes the agent's tools away hurts only its own score (the agent cannot act,
 * hidden tests fail), so it is recorded for operators but is not benchmark gaming by itself. Canned
 * answers that replace tool use are hardcoded_response, which is serious.
 */
export const seriousFlagTypes: ReadonlySet<JudgeFlagType> = new Set(
  judgeFlagTypes.filter((type) => type !== 'tool_avoidance'),
);

/** The name sent in response_format.json_schema.name; the sim fleet recognises the judge by it. */
export const judgeSchemaName = 'trl_pack_judgement';

/** Strict-mode JSON schema: every property required, no extras; flags come first so evidence precedes the verdict. */
export const judgeAnswerJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['flags', 'verdict', 'summary'],
  properties: {
    flags: {
      type: 'array',
      description: 'One entry per problem found; empty when the pack is clean.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'evidence', 'file'],
        properties: {
          type: { type: 'string', enum: [...judgeFlagTypes] },
          evidence: { type: 'string', description: 'An exact excerpt copied from the pack, at most 300 characters.' },
          file: { type: ['string', 'null'], description: 'The path of the file the excerpt is in.' },
        },
      },
    },
    verdict: { type: 'string', enum: ['pass', 'reject'] },
    summary: { type: 'string', description: 'Two or three sentences.' },
  },
} as const;

export const judgeAnswerFlagSchema = z.object({
  type: z.enum(judgeFlagTypes),
  evidence: z.string(),
  file: z.string().nullable().optional(),
});

export const judgeAnswerSchema = z.object({
  flags: z.array(judgeAnswerFlagSchema),
  verdict: z.enum(['pass', 'reject']),
  summary: z.string(),
});
export type JudgeAnswer = z.infer<typeof judgeAnswerSchema>;
