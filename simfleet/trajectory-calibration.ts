// The realistic fleet's calibration table: how long a simulated model explores before it attempts a
// scenario, how often its exploratory commands fail, how long its answers are and how much each read
// prints. Sources and reasons are in simfleet/README.md ("Calibration"); the figures here are the table.
import type { SimScenario } from './scenario-recognition.ts';
import { unitFromParts } from './deterministic-random.ts';

export type Difficulty = SimScenario['difficulty'];

/** Exploration turns before the attempt, by difficulty: [min, max] inclusive, before the model factor. */
export const exploreTurnsByDifficulty: Record<Difficulty, [number, number]> = {
  easy: [7, 14],
  medium: [10, 20],
  hard: [14, 26],
};
/** The longest exploration any plan gets: with the attempt, checks and finish it stays under max_turns 40. */
export const maxExploreTurns = 30;

export interface ModelTrajectoryProfile {
  /** Multiplies the exploration turns: weaker models wander more, strong ones go to the point. */
  exploreFactor: number;
  /** Chance that an exploratory command fails (a traceback, a missing file). */
  failRate: number;
  /** Tokens of visible text before each tool call: [min, max]. */
  answerTokens: [number, number];
  /** Lines each read prints (`head -n`), [min, max]: how fast the prompt grows. */
  readLines: [number, number];
  /** Checks after the attempt, [min, max]. */
  verifyTurns: [number, number];
}

const cheap: ModelTrajectoryProfile = {
  exploreFactor: 1.15,
  failRate: 0.16,
  answerTokens: [60, 260],
  readLines: [60, 180],
  verifyTurns: [1, 2],
};
const mid: ModelTrajectoryProfile = {
  exploreFactor: 1,
  failRate: 0.1,
  answerTokens: [150, 520],
  readLines: [80, 220],
  verifyTurns: [1, 3],
};
const strong: ModelTrajectoryProfile = {
  exploreFactor: 0.9,
  failRate: 0.07,
  answerTokens: [300, 900],
  readLines: [100, 260],
  verifyTurns: [2, 3],
};

/** By model id; an unknown model plays `mid`. */
export const trajectoryProfiles: Record<string, ModelTrajectoryProfile> = {
  'deepseek-v4-flash-0731': cheap,
  'deepseek-v4.1-flash': cheap,
  'qwen3.6-35b-a3b': cheap,
  'qwen3.8-27b': cheap,
  'glm-5.3-flash': { ...mid, answerTokens: [80, 320] },
  'glm-5.2': mid,
  'glm-5.3': { ...mid, exploreFactor: 0.95 },
  'kimi-k3': strong,
};

export function trajectoryProfile(modelId: string): ModelTrajectoryProfile {
  return trajectoryProfiles[modelId] ?? mid;
}

function between([min, max]: readonly [number, number], roll: number): number {
  return min + Math.floor(roll * (max - min + 1));
}

export interface TrajectoryPlan {
  exploreTurns: number;
  verifyTurns: number;
}

/** Fixed per (seed, model, scenario): every turn of a conversation agrees on the plan. */
export function trajectoryPlan(
  seed: number,
  modelId: string,
  scenario: Pick<SimScenario, 'name' | 'difficulty'>,
): TrajectoryPlan {
  const profile = trajectoryProfile(modelId);
  const explore = between(
    exploreTurnsByDifficulty[scenario.difficulty],
    unitFromParts('explore', seed, modelId, scenario.name),
  );
  return {
    exploreTurns: Math.min(maxExploreTurns, Math.max(1, Math.round(explore * profile.exploreFactor))),
    verifyTurns: between(profile.verifyTurns, unitFromParts('verify', seed, modelId, scenario.name)),
  };
}

/** The per-turn draws: whether this turn's command fails, how long the answer is, how much a read prints. */
export function turnDraws(
  seed: number,
  modelId: string,
  scenarioName: string,
  turn: number,
): { fails: boolean; answerTokens: number; readLines: number; pick: number } {
  const profile = trajectoryProfile(modelId);
  return {
    fails: unitFromParts('fail', seed, modelId, scenarioName, turn) < profile.failRate,
    answerTokens: between(profile.answerTokens, unitFromParts('answer', seed, modelId, scenarioName, turn)),
    readLines: between(profile.readLines, unitFromParts('read', seed, modelId, scenarioName, turn)),
    pick: unitFromParts('pick', seed, modelId, scenarioName, turn),
  };
}
