// The realistic fleet's chance that a model solves a scenario, from the model's competence profile and
// what the request actually carries (simfleet/prompt-features.ts). Pure: the effects are additive in
// log-odds, each bounded, so no single feature can push a chance to 0 or 1 except coaching, which is
// meant to be sharp. The table, with the reason for each size, is in simfleet/README.md.
import type { PromptFeatures } from './prompt-features.ts';

/** Effect sizes in log-odds (logits). Positive helps, negative hurts. */
export const effects = {
  /** The instruction is recognisable only by its opening: requirements past the cut are lost. */
  instructionDamaged: -1.5,
  /** All tool results cut (scaled by the share of results that were): the model works half-blind. */
  toolResultsCut: -0.8,
  /** Planning advice (read first, make a plan, one step at a time) in the system message or SKILL.md. */
  planningAdvice: 0.15,
  /** Verification advice (run the tests, check the outputs before finishing). */
  verificationAdvice: 0.25,
  /** Hidden scenario content (solution lines, expected values) the instruction does not hold: the floor. */
  coachingFloor: 2,
  /** Added on top of the floor in proportion to the share of hidden lines present. */
  coachingPerShare: 2,
  /** A note from an adviser whose own attempt would have solved the task. */
  soundAdvice: 0.35,
  /** A note from an adviser that would not have: mild distraction. */
  unsoundAdvice: -0.1,
  /** Advice cannot add more than this in all. */
  adviceCap: 0.6,
} as const;

/** One shared line can be chance (a common idiom); two or more is the scenario's content. */
export const minimumCoachingLines = 2;
/** Advice may lift the writer at most this far above the best of the writer and its advisers alone. */
export const ensembleHeadroom = 0.15;
/** Chances are kept inside [floor, 1 − floor] before the logits are applied, so every effect moves them. */
const probabilityFloor = 0.01;

export function logit(p: number): number {
  const q = Math.min(1 - probabilityFloor, Math.max(probabilityFloor, p));
  return Math.log(q / (1 - q));
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export interface ChanceBreakdown {
  /** The profile's chance (base × difficulty × category × drift). */
  base: number;
  /** The chance after the request's features. */
  chance: number;
  /** Each effect that applied, in logits, by name. */
  applied: Record<string, number>;
}

/**
 * `base`: the writer's own chance from its profile; `adviserBases`: the chance of each adviser whose
 * note is in the request (its own profile), in the order of `features.adviserNotes`.
 */
export function solveChance(
  base: number,
  features: PromptFeatures,
  adviserBases: readonly number[] = [],
): ChanceBreakdown {
  const applied: Record<string, number> = {};
  if (!features.instructionIntact) applied['instructionDamaged'] = effects.instructionDamaged;
  if (features.toolResults > 0 && features.toolResultsCut > 0)
    applied['toolResultsCut'] = effects.toolResultsCut * (features.toolResultsCut / features.toolResults);
  if (features.planningAdvice) applied['planningAdvice'] = effects.planningAdvice;
  if (features.verificationAdvice) applied['verificationAdvice'] = effects.verificationAdvice;
  if (features.hiddenLinesPresent >= minimumCoachingLines && features.hiddenLines > 0)
    applied['coaching'] =
      effects.coachingFloor +
      effects.coachingPerShare * Math.min(1, features.hiddenLinesPresent / features.hiddenLines);
  const advice = features.adviserNotes.reduce(
    (sum, note) => sum + (note.sound ? effects.soundAdvice : effects.unsoundAdvice),
    0,
  );
  if (features.adviserNotes.length > 0) applied['advice'] = Math.min(effects.adviceCap, advice);

  const total = Object.values(applied).reduce((sum, value) => sum + value, 0);
  let chance = total === 0 ? base : sigmoid(logit(base) + total);
  // Advice helps by a bounded amount: never more than the headroom above the best member alone
  // (coaching aside, which is not advice).
  if (applied['advice'] !== undefined && applied['advice'] > 0 && applied['coaching'] === undefined) {
    const withoutAdvice = sigmoid(logit(base) + total - applied['advice']);
    const bestAlone = Math.max(withoutAdvice, ...adviserBases);
    chance = Math.min(chance, Math.max(withoutAdvice, bestAlone + ensembleHeadroom));
  }
  return { base, chance: Math.min(1, Math.max(0, chance)), applied };
}
