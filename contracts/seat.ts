// The seat: who holds it, who challenges it, and the evidence behind every change (or non-change).
import { z } from 'zod';

/** One scenario's outcome in one evaluation, as the decision rule sees it. */
export const scenarioScoreSchema = z.object({
  scenario: z.string(),
  testsPassed: z.number().int().nonnegative(),
  testsTotal: z.number().int().nonnegative(),
});
export type ScenarioScore = z.infer<typeof scenarioScoreSchema>;

/** One evaluation of one pack, reduced to what the rule needs. */
export const scoredEvaluationSchema = z.object({
  packHash: z.string(),
  workflowId: z.string(),
  status: z.enum(['completed', 'incomplete', 'rejected']),
  testsPassed: z.number().int().nonnegative(),
  testsTotal: z.number().int().nonnegative(),
  perScenario: z.array(scenarioScoreSchema),
});
export type ScoredEvaluation = z.infer<typeof scoredEvaluationSchema>;

export interface DecisionInput {
  incumbentPackHash: string;
  challengerPackHash: string;
  /** Repeats of the incumbent in this cycle (paired with the challenger's by index). */
  incumbent: ScoredEvaluation[];
  challenger: ScoredEvaluation[];
  /** At least 10,000. */
  bootstrapResamples?: number;
  /** One-sided lower bound level, 0.95 by default. */
  confidence?: number;
}

export type DecisionOutcome = 'challenger_takes_seat' | 'incumbent_keeps_seat' | 'no_decision';

export interface Decision {
  outcome: DecisionOutcome;
  /** One sentence an operator can read. */
  reason: string;
  /** Mean over repeats of the sum of tests passed: I and C. */
  incumbentTotal: number;
  challengerTotal: number;
  /** Tests in the scenarios both were scored on. */
  maxTotal: number;
  /** s = I / max. */
  incumbentShare: number;
  /** δ(s): 0.03 for s ≤ 0.70, falling linearly to 0 at s = 1. */
  marginFraction: number;
  /** I · δ(s), in tests. */
  marginTests: number;
  /** C must exceed this: I + I·δ(s). */
  requiredTotal: number;
  passedMargin: boolean;
  perScenario: { scenario: string; incumbent: number; challenger: number; difference: number }[];
  /** Repeats per side that were averaged (set by decideChallenge; optional for older records). */
  repeats?: number;
  /** Scenarios left out because some evaluation lacked them (set by decideChallenge). */
  excludedScenarios?: string[];
  bootstrap: { resamples: number; seed: string; confidence: number; meanDifference: number; lowerBound: number; passed: boolean };
}
