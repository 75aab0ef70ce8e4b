// The seat's decision rule: does the challenger beat the incumbent by more than noise? Called from
// Temporal workflow code, so it is pure and deterministic: no clock, no Math.random, no Node
// built-ins; the bootstrap is seeded from the two pack hashes, so a pair always gets the same answer.
//
// The challenger takes the seat only when both tests pass:
//   1. margin: C > I + I·δ(s), with s = I / max and δ(s) from noise-margin.ts (ties stay seated);
//   2. bound:  the one-sided lower confidence bound of the paired bootstrap over scenarios is > 0.
// Anything incomplete, rejected or inconsistent is `no_decision`: the seat never moves on it.
import type { Decision, DecisionInput } from '../contracts/seat.ts';
import { noiseMarginFraction } from './noise-margin.ts';
import { pairedBootstrapLowerBound } from './paired-bootstrap.ts';
import { pairScenarios, type PairedScenario } from './paired-scores.ts';
import { pairSeed, seedToString } from './seeded-random.ts';

export const defaultBootstrapResamples = 10_000;
export const minimumBootstrapResamples = 10_000;
/** Bounds the work a misconfiguration can cause inside a workflow task (~0.3 s at 26 scenarios). */
export const maximumBootstrapResamples = 1_000_000;
export const defaultConfidence = 0.95;
/**
 * Means over repeats such as 1/3 are not exact in binary, so a true tie can come out 1e-15 ahead.
 * Anything within this many tests of the threshold counts as a tie, which the incumbent keeps.
 */
export const tieToleranceTests = 1e-9;

interface Settings {
  resamples: number;
  confidence: number;
  seed: string;
}

function settingsProblem(resamples: number, confidence: number): string | undefined {
  if (!Number.isInteger(resamples) || resamples < minimumBootstrapResamples || resamples > maximumBootstrapResamples) {
    return `bootstrapResamples must be an integer from ${minimumBootstrapResamples} to ${maximumBootstrapResamples}, got ${resamples}`;
  }
  if (!Number.isFinite(confidence) || confidence < 0.5 || confidence >= 1) {
    return `confidence must be in [0.5, 1), got ${confidence}`;
  }
  return undefined;
}

/** Whole numbers as they are, others to two decimals: reasons stay readable and deterministic. */
function figure(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(2)}%`;
}

function noDecision(reason: string, settings: Settings, extra: Partial<Decision> = {}): Decision {
  return {
    outcome: 'no_decision',
    reason: `no decision: ${reason}`,
    incumbentTotal: 0,
    challengerTotal: 0,
    maxTotal: 0,
    incumbentShare: 0,
    marginFraction: 0,
    marginTests: 0,
    requiredTotal: 0,
    passedMargin: false,
    perScenario: [],
    excludedScenarios: [],
    bootstrap: {
      resamples: settings.resamples,
      seed: settings.seed,
      confidence: settings.confidence,
      meanDifference: 0,
      lowerBound: 0,
      passed: false,
    },
    ...extra,
  };
}

function sum(scenarios: readonly PairedScenario[], pick: (scenario: PairedScenario) => number): number {
  return scenarios.reduce((total, scenario) => total + pick(scenario), 0);
}

export function decideChallenge(input: DecisionInput): Decision {
  const resamples = input.bootstrapResamples ?? defaultBootstrapResamples;
  const confidence = input.confidence ?? defaultConfidence;
  const seed = pairSeed(input.incumbentPackHash, input.challengerPackHash);
  const settings: Settings = { resamples, confidence, seed: seedToString(seed) };

  const problem = settingsProblem(resamples, confidence);
  if (problem !== undefined) return noDecision(problem, settings);
  const pairing = pairScenarios(input);
  if (!pairing.ok) return noDecision(pairing.reason, settings);

  const { scenarios, excludedScenarios, repeats } = pairing;
  const incumbentTotal = sum(scenarios, (scenario) => scenario.incumbent);
  const challengerTotal = sum(scenarios, (scenario) => scenario.challenger);
  const maxTotal = sum(scenarios, (scenario) => scenario.testsTotal);
  const incumbentShare = incumbentTotal / maxTotal;
  const marginFraction = noiseMarginFraction(incumbentShare);
  const marginTests = incumbentTotal * marginFraction;
  const requiredTotal = incumbentTotal + marginTests;
  const passedMargin = challengerTotal > requiredTotal + tieToleranceTests;

  // Computed even when the margin fails: the evidence should show both tests.
  const differences = scenarios.map((scenario) => scenario.difference);
  const { meanDifference, lowerBound } = pairedBootstrapLowerBound(differences, { resamples, confidence, seed });
  const passedBound = lowerBound > tieToleranceTests;

  const level = `${Math.round(confidence * 1000) / 10}%`;
  const marginText =
    `challenger ${figure(challengerTotal)} vs incumbent ${figure(incumbentTotal)} of ${maxTotal} tests ` +
    `(s = ${incumbentShare.toFixed(3)}, δ = ${percent(marginFraction)}, needs more than ${figure(requiredTotal)})`;
  const boundText = `${level} bootstrap lower bound of C − I is ${figure(lowerBound)} tests over ${scenarios.length} scenarios`;
  const exclusionText =
    excludedScenarios.length === 0
      ? ''
      : `; ${excludedScenarios.length} scenario(s) not in every evaluation left out: ${excludedScenarios.join(', ')}`;

  let outcome: Decision['outcome'];
  let reason: string;
  if (passedMargin && passedBound) {
    outcome = 'challenger_takes_seat';
    reason = `challenger takes the seat: ${marginText}, and the ${boundText} (> 0)`;
  } else {
    outcome = 'incumbent_keeps_seat';
    const failed =
      !passedMargin && !passedBound ? 'margin and bound both failed' : !passedMargin ? 'margin failed' : 'bound failed';
    reason =
      `incumbent keeps the seat, ${failed}: ${marginText}${passedMargin ? ' — passed' : ' — not met'}; ` +
      `${boundText}${passedBound ? ' — passed' : ' (needs > 0)'}`;
  }

  return {
    outcome,
    reason: reason + exclusionText,
    incumbentTotal,
    challengerTotal,
    maxTotal,
    incumbentShare,
    marginFraction,
    marginTests,
    requiredTotal,
    passedMargin,
    perScenario: scenarios.map(({ scenario, incumbent, challenger, difference }) => ({
      scenario,
      incumbent,
      challenger,
      difference,
    })),
    repeats,
    excludedScenarios,
    bootstrap: { resamples, seed: settings.seed, confidence, meanDifference, lowerBound, passed: passedBound },
  };
}
