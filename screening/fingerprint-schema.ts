// The shape of scenario fingerprints: what scenario-fingerprints.ts builds and fingerprint-index.ts
// looks up (their own file, so neither has to import the other).
import { z } from 'zod';

/** In priority order: when one text qualifies as several kinds, the first one names it. */
export const fingerprintKinds = [
  'test-name',
  'scenario-name',
  'file-path',
  'test-string',
  'expected-value',
  'solution-line',
  'fixture-value',
  'instruction-title',
  'instruction-term',
  'instruction-phrase',
] as const;
export type FingerprintKind = (typeof fingerprintKinds)[number];

export const fingerprintSchema = z.object({
  kind: z.enum(fingerprintKinds),
  scenario: z.string(),
  /** Normal form (lower-case words joined by one space): what is looked up. */
  text: z.string().min(1),
  /** The original wording, at most 200 characters: what a miner is shown. */
  display: z.string(),
});
export type Fingerprint = z.infer<typeof fingerprintSchema>;

export const scenarioFingerprintsSchema = z.object({
  version: z.literal(1),
  /** sha256 of the scenario texts they were built from (see sourcesDigest). */
  digest: z.string(),
  scenarios: z.array(z.string()),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  fingerprints: z.array(fingerprintSchema),
});
export type ScenarioFingerprints = z.infer<typeof scenarioFingerprintsSchema>;
