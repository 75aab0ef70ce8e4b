// The spec manifest: everything that decides what a contest is — the scenario set (content hashes),
// the sandbox images, the agent and its version, the price table and cap, the decision rule's
// parameters. Its hash is stamped on every evaluation result and seat decision: two validators
// with the same manifest hash run the same contest.
import { z } from 'zod';

export const decisionParametersSchema = z.object({
  repeats: z.number().int(),
  bootstrapResamples: z.number().int(),
  confidence: z.number(),
  seed: z.number().int(),
});
export type DecisionParameters = z.infer<typeof decisionParametersSchema>;

export const specManifestSchema = z.object({
  version: z.literal(1),
  /** The registry's spec number when the active set ran; null for a chosen subset. */
  scenarioSpec: z.number().int().nullable(),
  /** Sorted by name; a null hash is a scenario that never got as far as being read. */
  scenarios: z.array(z.object({ name: z.string(), contentHash: z.string().nullable() })),
  /** Image ids (sha256) by role: the sandbox base every scenario is built FROM, the policy images. */
  images: z.record(z.string(), z.string()),
  agent: z.object({ name: z.string(), version: z.string() }),
  /** gateway/catalog/price-table.ts priceTableHash: every model's prices and the cap. */
  priceTableHash: z.string(),
  capUsd: z.number(),
  /** The seat's decision parameters; null on an evaluation, which decides nothing by itself. */
  decision: decisionParametersSchema.nullable(),
});
export type SpecManifest = z.infer<typeof specManifestSchema>;
