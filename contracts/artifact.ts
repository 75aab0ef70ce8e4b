import { z } from 'zod';

/** A file written by an activity, passed across Temporal by reference: never the bytes themselves. */
export const artifactRefSchema = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  sizeBytes: z.number().int().nonnegative(),
});
export type ArtifactRef = z.infer<typeof artifactRefSchema>;
