import { z } from 'zod';

import { agentNameSchema, defaultAgent } from './agent-kinds.ts';
import type { ScenarioResult } from './results.ts';
import { artifactRefSchema } from './artifact.ts';
import { pairingSchema } from './pairing.ts';

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
/** What a scenario result may be reused under: all of it must match the rerun's. */
export const reuseKeySchema = z.object({
  packHash: z.string(),
  scenarioHash: z.string(),
  spec: z.number().int().nullable(),
  seed: z.number().int().nonnegative(),
  agent: z.string(),
});
export type ReuseKey = z.infer<typeof reuseKeySchema>;

/** A completed scenario result of an earlier evaluation, offered to a rerun. */
export const reusedScenarioSchema = z.object({
  from: z.string(),
  /** `result` (default): used as it is. `verify` (trl rescore): the agent's stored outputs are verified
   * again by today's verifier in a fresh container; the scenario's content hash need not match. */
  mode: z.enum(['result', 'verify']).optional(),
  key: reuseKeySchema,
  result: z.custom<ScenarioResult>(
    (value) => typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string',
  ),
});
export type ReusedScenario = z.infer<typeof reusedScenarioSchema>;

export const submissionSchema = z.object({
  submissionId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'submissionId: letters, digits, dot, dash, underscore; at most 128'),
  pack: packSourceSchema,
  agent: agentNameSchema.default(defaultAgent),
  /** Scenario names to run; empty means the whole active set. */
  scenarios: z.array(z.string()).default([]),
  /** Folder of scenario folders in the standard layout; defaults to the project's scenarios/. */
  scenariosDir: z.string().optional(),
  seed: z.number().int().nonnegative().default(0),
  /** The miner's hotkey (ss58) when the pack came from a chain commitment; local runs have none. */
  hotkey: z.string().min(1).max(64).optional(),
  /** A rerun: the evaluation it reruns (workflow id), and the results it may reuse instead of running. */
  rerunOf: z.string().optional(),
  reuse: z.array(reusedScenarioSchema).optional(),
  /** `trl eval --tape`: each scenario's recorded model-call log of an earlier run, answering instead of the upstream.
   * */
  tape: z.object({ of: z.string(), callLogs: z.record(z.string(), artifactRefSchema) }).optional(),
  /** The seat's fair pairing: each scenario's run waits for the seat's gate, so both sides run it together. */
  pairing: pairingSchema.optional(),
});
export type Submission = z.infer<typeof submissionSchema>;
export type SubmissionInput = z.input<typeof submissionSchema>;
