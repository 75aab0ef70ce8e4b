import { z } from 'zod';

import { agentNameSchema, defaultAgent } from './agent-kinds.ts';

export const packSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('directory'), path: z.string().min(1) }),
  z.object({
    kind: z.literal('url'),
    url: z.string().url(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex characters'),
  }),
]);
export type PackSource = z.infer<typeof packSourceSchema>;

/** The input of evaluateSubmission: everything needed to evaluate one pack, as plain JSON. */
export const submissionSchema = z.object({
  submissionId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'submissionId: letters, digits, dot, dash, underscore; at most 128'),
  pack: packSourceSchema,
  agent: agentNameSchema.default(defaultAgent),
  /** Scenario names to run; empty means the whole active set. */
  scenarios: z.array(z.string()).default([]),
  /** Folder of scenario folders in the standard layout; defaults to the project's scenarios/. */
  scenariosDir: z.string().optional(),
  seed: z.number().int().nonnegative().default(0),
  /** The miner's hotkey (ss58) when the pack came from a chain commitment; local runs have none. */
  hotkey: z.string().min(1).max(64).optional(),
});
export type Submission = z.infer<typeof submissionSchema>;
export type SubmissionInput = z.input<typeof submissionSchema>;
