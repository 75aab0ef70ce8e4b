// How static-scan evidence turns into a verdict: a weight per kind of evidence, a cap per kind (so
// one kind of coincidence cannot add up to a rejection on its own), kinds that reject outright, and
// the score that rejects. Operators may override any of it; the defaults are tuned on the corpus in
// test/fixtures/packs (honest packs score 0, gaming packs well above the reject score).
import { z } from 'zod';

export const kindRuleSchema = z.object({
  weight: z.number().min(0),
  cap: z.number().min(0),
  hardReject: z.boolean(),
});
export type KindRule = z.infer<typeof kindRuleSchema>;

export const scanThresholdsSchema = z.object({
  /** A score at or above this rejects the pack. */
  rejectScore: z.number().positive(),
  /** Scenario text found only after decoding (base64, joined pieces, …) weighs this much more: hiding it is intent. */
  encodedWeightFactor: z.number().min(1),
  /** Evidence items kept in the result (the worst first); the score counts all of them. */
  maxEvidence: z.number().int().positive(),
  kinds: z.record(z.string(), kindRuleSchema),
});
export type ScanThresholds = z.infer<typeof scanThresholdsSchema>;

const rule = (weight: number, cap: number, hardReject = false): KindRule => ({ weight, cap, hardReject });

export const defaultScanThresholds: ScanThresholds = {
  rejectScore: 30,
  encodedWeightFactor: 2,
  maxEvidence: 60,
  kinds: {
    // Scenario fingerprints (see scenario-fingerprints.ts).
    'test-name': rule(30, 60, true),
    'test-string': rule(8, 48),
    'expected-value': rule(5, 25),
    'solution-line': rule(8, 48),
    'file-path': rule(5, 25),
    'fixture-value': rule(4, 24),
    'scenario-name': rule(6, 18),
    'instruction-title': rule(8, 16),
    'instruction-term': rule(2, 10),
    'instruction-phrase': rule(5, 40),
    // Behaviour a policy has no business with: it reaches models through ctx.call only.
    'network-fetch': rule(30, 30, true),
    'network-api': rule(30, 30, true),
    url: rule(10, 20),
    'dynamic-import': rule(30, 30, true),
    'builtin-import': rule(30, 30, true),
    'require-builtin': rule(30, 30, true),
    'require-call': rule(15, 30),
    'process-env': rule(20, 20),
    'process-access': rule(10, 20),
    'child-process': rule(30, 30, true),
    'dynamic-code': rule(20, 20),
    'hidden-api-name': rule(20, 40),
    // Text addressed to the LLM judge: shown to the judge and the miner, never a rejection by itself.
    'judge-injection': rule(10, 20),
  },
};

/** Operator overrides on top of the defaults (kinds merged one by one). */
export function parseScanThresholds(input: unknown): ScanThresholds {
  const partial = scanThresholdsSchema.partial().parse(input);
  return { ...defaultScanThresholds, ...partial, kinds: { ...defaultScanThresholds.kinds, ...partial.kinds } };
}

export function ruleFor(thresholds: ScanThresholds, kind: string): KindRule {
  return thresholds.kinds[kind] ?? defaultScanThresholds.kinds[kind] ?? rule(0, 0);
}
