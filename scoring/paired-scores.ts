// Turns the repeats of both sides into paired per-scenario scores, or says why they cannot be
// compared. Everything the decision rule refuses to decide on is found here, with a reason an
// operator can act on: the seat never moves on evidence that is incomplete or inconsistent.
import type { ScoredEvaluation } from '../contracts/seat.ts';

export interface PairedScenario {
  scenario: string;
  testsTotal: number;
  /** Mean over the side's repeats of tests passed. */
  incumbent: number;
  challenger: number;
  /** challenger − incumbent. */
  difference: number;
}

export type Pairing =
  | { ok: true; scenarios: PairedScenario[]; excludedScenarios: string[]; repeats: number }
  | { ok: false; reason: string };

export interface PairingInput {
  incumbentPackHash: string;
  challengerPackHash: string;
  incumbent: readonly ScoredEvaluation[];
  challenger: readonly ScoredEvaluation[];
}

type Side = 'incumbent' | 'challenger';

function describe(side: Side, index: number, evaluation: ScoredEvaluation): string {
  return `${side} repeat ${index + 1} (workflow ${evaluation.workflowId})`;
}

/** The first problem that makes the evaluations of one side unusable, if any. */
function sideProblem(side: Side, packHash: string, evaluations: readonly ScoredEvaluation[]): string | undefined {
  for (const [index, evaluation] of evaluations.entries()) {
    const name = describe(side, index, evaluation);
    if (evaluation.status !== 'completed') return `${name} is ${evaluation.status}`;
    if (evaluation.packHash !== packHash)
      return `${name} evaluated pack ${evaluation.packHash}, not the ${side}'s ${packHash}`;
    const seen = new Set<string>();
    for (const score of evaluation.perScenario) {
      if (seen.has(score.scenario)) return `${name} lists scenario ${score.scenario} twice`;
      seen.add(score.scenario);
      if (score.testsPassed > score.testsTotal) {
        return `${name} reports ${score.testsPassed} of ${score.testsTotal} tests passed in ${score.scenario}`;
      }
    }
  }
  return undefined;
}

/** Plain code-unit order: locale-independent, so every worker sorts alike. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function pairScenarios(input: PairingInput): Pairing {
  const { incumbent, challenger } = input;
  if (incumbent.length === 0) return { ok: false, reason: 'no incumbent evaluation to compare with' };
  if (challenger.length === 0) return { ok: false, reason: 'no challenger evaluation to compare with' };
  if (incumbent.length !== challenger.length) {
    return {
      ok: false,
      reason: `repeat counts differ: ${incumbent.length} incumbent, ${challenger.length} challenger`,
    };
  }
  if (input.incumbentPackHash === input.challengerPackHash) {
    return { ok: false, reason: `the challenger is the incumbent's own pack ${input.incumbentPackHash}` };
  }
  const problem =
    sideProblem('incumbent', input.incumbentPackHash, incumbent) ??
    sideProblem('challenger', input.challengerPackHash, challenger);
  if (problem !== undefined) return { ok: false, reason: problem };

  const everyEvaluation = [...incumbent, ...challenger];
  const lookups = everyEvaluation.map(
    (evaluation) => new Map(evaluation.perScenario.map((score) => [score.scenario, score])),
  );
  const allNames = new Set(
    everyEvaluation.flatMap((evaluation) => evaluation.perScenario.map((score) => score.scenario)),
  );
  const shared = [...allNames].filter((name) => lookups.every((lookup) => lookup.has(name))).sort(byCodeUnits);
  const excludedScenarios = [...allNames].filter((name) => !shared.includes(name)).sort(byCodeUnits);
  if (shared.length === 0) return { ok: false, reason: 'no scenario was scored in every evaluation of both sides' };

  const scenarios: PairedScenario[] = [];
  for (const name of shared) {
    const scores = lookups.map((lookup) => lookup.get(name)!);
    // A scenario the pack broke before verification counts 0 of the tests the others found; when
    // no evaluation verified it, there is nothing to compare and it is left out.
    const verified = scores.filter((score) => !score.unverified);
    if (verified.length === 0) {
      excludedScenarios.push(name);
      continue;
    }
    const testsTotal = verified[0]!.testsTotal;
    const totals = new Set(verified.map((score) => score.testsTotal));
    if (totals.size > 1) {
      return {
        ok: false,
        reason: `scenario ${name} has different test counts across evaluations (${[...totals].sort((a, b) => a - b).join(', ')}): the hidden tests changed`,
      };
    }
    const mean = (from: number, to: number) =>
      scores.slice(from, to).reduce((sum, score) => sum + (score.unverified ? 0 : score.testsPassed), 0) / (to - from);
    const incumbentMean = mean(0, incumbent.length);
    const challengerMean = mean(incumbent.length, scores.length);
    scenarios.push({
      scenario: name,
      testsTotal,
      incumbent: incumbentMean,
      challenger: challengerMean,
      difference: challengerMean - incumbentMean,
    });
  }
  if (scenarios.every((scenario) => scenario.testsTotal === 0)) {
    return { ok: false, reason: 'the paired scenarios have no tests' };
  }
  return { ok: true, scenarios, excludedScenarios: excludedScenarios.sort(byCodeUnits), repeats: incumbent.length };
}
