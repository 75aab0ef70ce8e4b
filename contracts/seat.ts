// The seat: who holds it, who challenges it, and the evidence behind every change (or non-change).
import { z } from 'zod';
import { agentNameSchema, defaultAgent } from './agent-kinds.ts';

/** One scenario's outcome in one evaluation, as the decision rule sees it. */
export const scenarioScoreSchema = z.object({
  scenario: z.string(),
  testsPassed: z.number().int().nonnegative(),
  testsTotal: z.number().int().nonnegative(),
  /** The pack broke its own run before verification: 0 passed, of the count the other evaluations found. */
  unverified: z.boolean().optional(),
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
  /** Codes of a rejection (pre-evaluation or pack), when rejected. */
  rejectionCodes: z.array(z.string()).optional(),
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
  bootstrap: {
    resamples: number;
    seed: string;
    confidence: number;
    meanDifference: number;
    lowerBound: number;
    passed: boolean;
  };
}

/** How the seat evaluates: the same for incumbent and challenger. */
export const seatConfigSchema = z.object({
  netuid: z.number().int().min(0).max(65535),
  agent: agentNameSchema.default(defaultAgent),
  /** Scenario names; empty = the active set. */
  scenarios: z.array(z.string()).default([]),
  scenariosDir: z.string().optional(),
  /** Evaluations per side per challenge; repeat r of both sides shares seed `seed + r`. */
  repeats: z.number().int().min(1).max(10).default(1),
  bootstrapResamples: z.number().int().min(10_000).default(10_000),
  /**
   * One-sided level of the bootstrap lower bound. 0.998, not 0.95: at 0.95 the bound alone is a 5%
   * test, and identical policies took the seat in 4.7–6.5% of simulated cycles (the δ margin, a few
   * tests, adds nothing against that noise); the percentile bootstrap over 26 scenarios is also
   * liberal (0.995 still gave 0.7–1.1% over 5,000 cycles); 0.998 gives 0.3–0.7% over 3,000
   * (bench/seat-calibration.ts).
   */
  confidence: z.number().min(0.5).lt(1).default(0.998),
  seed: z.number().int().nonnegative().default(0),
  /**
   * Least time between two accepted submissions of one hotkey (0: no limit; the validator's
   * TRL_SEAT_MIN_SUBMISSION_INTERVAL_SEC defaults to an hour). One pending challenge per hotkey holds always.
   */
  minSubmissionIntervalSec: z.number().int().nonnegative().default(0),
  /**
   * How the two sides of a repeat are scheduled. `interleaved`: scenario by scenario in lockstep
   * (contracts/pairing.ts), so upstream drift during the hour hits both alike; `sequential`: the
   * challenger's first evaluation whole, then the incumbent's (the old way, kept for comparison).
   */
  pairing: z.enum(['interleaved', 'sequential']).default('interleaved'),
  /** Interleaved: scenario pairs in flight at once (1 = strict alternation; each pair takes two activity slots). */
  pairedWindow: z.number().int().min(1).max(64).default(2),
  /** Continue-as-new past this many history events (Temporal suggests it near 4,096 anyway). */
  maxHistoryEvents: z.number().int().min(20).default(2_000),
});
export type SeatConfig = z.infer<typeof seatConfigSchema>;
export type SeatConfigInput = z.input<typeof seatConfigSchema>;

/** A pack offered to the seat: the first commitment of its hash on chain. */
export const challengeSchema = z.object({
  packHash: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string().url().startsWith('https://', 'the pack URL must use https'),
  hotkey: z.string().min(1).max(64),
  /** Block of the commitment: earlier commitments are taken first. */
  commitBlock: z.number().int().nonnegative(),
});
export type Challenge = z.infer<typeof challengeSchema>;

export interface Incumbent {
  packHash: string;
  url: string;
  hotkey: string;
  /** Tests passed (mean over repeats) in the evaluation that won the seat, and the maximum. */
  seatedTestsPassed: number;
  seatedTestsTotal: number;
  seatedAt: string;
  /** The latest re-evaluation beside a challenger. */
  lastTestsPassed?: number;
  /** Challenges in a row in which its re-evaluation could not finish while the challenger's did
   * (scoring/incumbent-availability.ts). */
  unevaluableRounds?: number;
}

export interface SeatRecord {
  /** 1, 2, 3… over the seat's whole life (carried across continue-as-new). */
  number: number;
  packHash: string;
  hotkey: string;
  outcome: DecisionOutcome;
  reason: string;
  incumbentPackHash?: string;
  incumbentTotal?: number;
  challengerTotal?: number;
  /** Tests in the scenarios scored. */
  testsTotal?: number;
  /** No decision because the challenger's own evaluation could not finish: it may be offered again, a few times. */
  incomplete?: boolean;
  /** The incumbent's re-evaluation could not finish while the challenger's did: not counted against the challenger. */
  incumbentUnevaluable?: boolean;
  /** The seat moved because the incumbent could not be evaluated for too many challenges in a row. */
  incumbentForfeits?: boolean;
  decidedAt: string;
  evaluations: string[];
  /** The full Decision with per-scenario evidence, as a file, and the decision's spec manifest hash
   * (contracts/spec-manifest.ts). */
  evidence?: { path: string; sha256: string; manifestHash?: string };
}

export interface ChallengeOffer {
  packHash: string;
  accepted: boolean;
  reason: string;
  /** Set on refusals by the per-hotkey limits (workflows/seat-admission.ts). */
  code?: 'hotkey_pending' | 'hotkey_interval';
  hotkey?: string;
}

export interface SeatView {
  netuid: number;
  incumbent: Incumbent | null;
  current: Challenge | null;
  queue: Challenge[];
  history: SeatRecord[];
  decisions: number;
  config: SeatConfig;
  /** Settings that take effect before the next challenge. */
  pendingConfig: SeatConfig | null;
}

/** Everything the seat workflow carries across continue-as-new. */
export interface SeatState {
  config: SeatConfig;
  incumbent: Incumbent | null;
  queue: Challenge[];
  /** A challenge being decided; after a continue-as-new it is taken first. */
  current: Challenge | null;
  history: SeatRecord[];
  /** Hashes already decided, so a pack is evaluated once (the newest few thousand). */
  decided: string[];
  /** Packs whose evaluation could not finish, with how often that happened. */
  incompleteAttempts: Record<string, number>;
  /** Settings received while a challenge ran; applied before the next. */
  pendingConfig?: SeatConfig | null;
  /** When each hotkey's latest submission was accepted (workflow time, ms); pruned past the interval. */
  hotkeyAcceptedAtMs?: Record<string, number>;
  decisions: number;
}

export function newSeatState(config: SeatConfig): SeatState {
  return {
    config,
    incumbent: null,
    queue: [],
    current: null,
    history: [],
    decided: [],
    incompleteAttempts: {},
    decisions: 0,
  };
}
