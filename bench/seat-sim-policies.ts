// Simulated policies for the seat calibration bench: the active scenarios (category, difficulty,
// hidden-test count) and a draw of one evaluation of a policy, built on the sim fleet's profiles.
//
// Outcome model (one cycle = one incumbent/challenger comparison):
//   p_j    = the sim fleet's solve probability of the policy's model on scenario j
//            (base × byDifficulty × byCategory, simfleet/agent-behaviour.ts), plus the challenger's
//            advantage in percentage points, clamped to [0.005, 0.995];
//   ε_j    ~ N(0, sharedSd²) once per cycle and scenario, shared by both sides and all repeats:
//            this cycle's scenario is harder or easier than the profile says, for everyone;
//   η_rj   ~ N(0, runSd²) per evaluation r and scenario: run-to-run luck of one agent trajectory.
//            A large runSd pushes a run towards all-or-nothing, as in the sim fleet, where a run
//            either solves (every test passes) or leaves a partial or wrong answer;
//   passed ~ Binomial(tests_j, logistic(logit(p_j) + ε_j + η_rj)).
// A drifting upstream scales p_j by the competence left when the run reaches the fleet
// (bench/pairing-schedule.ts), before the noise.
import path from 'node:path';
import type { ScoredEvaluation } from '../contracts/seat.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { readRegistry } from '../catalog/registry.ts';
import type { ModelEntry } from '../gateway/catalog/allowlist.ts';
import { solveProbability } from '../simfleet/agent-behaviour.ts';
import { testsInFolder } from '../catalog/count-tests.ts';
import type { SeededRandom } from '../scoring/seeded-random.ts';

export interface ScenarioProfile {
  name: string;
  category: string;
  difficulty: 'easy' | 'medium' | 'hard';
  testsTotal: number;
}

export interface NoiseModel {
  sharedSd: number;
  runSd: number;
}

/** The active scenario set (registry.json), each with its category, difficulty and test count. */
export async function loadScenarioProfiles(
  scenariosDir: string,
): Promise<{ spec: number; scenarios: ScenarioProfile[] }> {
  const registry = await readRegistry(scenariosDir);
  if (!registry) throw new Error(`${scenariosDir} has no registry.json`);
  const scenarios: ScenarioProfile[] = [];
  for (const name of registry.active) {
    const dir = path.join(scenariosDir, name);
    const { config } = await loadScenario(dir);
    const declared = config.metadata.difficulty;
    const difficulty = declared === 'easy' || declared === 'hard' ? declared : 'medium';
    scenarios.push({
      name,
      category: config.metadata.category ?? 'uncategorised',
      difficulty,
      testsTotal: await testsInFolder(path.join(dir, 'tests')),
    });
  }
  return { spec: registry.spec, scenarios };
}

const probabilityFloor = 0.005;
const clamp = (p: number) => Math.min(1 - probabilityFloor, Math.max(probabilityFloor, p));
const logit = (p: number) => Math.log(p / (1 - p));
const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** Per-scenario logits of a policy that routes everything to `model`, raised by `advantage` (a probability). */
export function policyLogits(model: ModelEntry, scenarios: readonly ScenarioProfile[], advantage = 0): Float64Array {
  return Float64Array.from(scenarios, (scenario) => logit(clamp(solveProbability(model, scenario) + advantage)));
}

/** Expected tests passed without noise: Σ tests_j · p_j. */
export function expectedTestsPassed(logits: Float64Array, scenarios: readonly ScenarioProfile[]): number {
  return scenarios.reduce((sum, scenario, j) => sum + scenario.testsTotal * logistic(logits[j]!), 0);
}

export function drawSharedDifficulty(random: SeededRandom, scenarioCount: number, noise: NoiseModel): Float64Array {
  return Float64Array.from({ length: scenarioCount }, () => noise.sharedSd * random.nextGaussian());
}

/** One evaluation of one policy in one cycle. */
export function drawEvaluation(
  random: SeededRandom,
  scenarios: readonly ScenarioProfile[],
  logits: Float64Array,
  sharedDifficulty: Float64Array,
  noise: NoiseModel,
  identity: { packHash: string; workflowId: string },
  competenceScales?: Float64Array,
): ScoredEvaluation {
  const perScenario = scenarios.map((scenario, j) => {
    const scale = competenceScales?.[j] ?? 1;
    const logitP = scale === 1 ? logits[j]! : logit(clamp(logistic(logits[j]!) * scale));
    const p = logistic(logitP + sharedDifficulty[j]! + noise.runSd * random.nextGaussian());
    let testsPassed = 0;
    for (let test = 0; test < scenario.testsTotal; test++) if (random.nextFloat() < p) testsPassed++;
    return { scenario: scenario.name, testsPassed, testsTotal: scenario.testsTotal };
  });
  return {
    ...identity,
    status: 'completed',
    testsPassed: perScenario.reduce((sum, score) => sum + score.testsPassed, 0),
    testsTotal: perScenario.reduce((sum, score) => sum + score.testsTotal, 0),
    perScenario,
  };
}

/** A 64-hex-digit stand-in for a pack's sha256, different every call. */
export function randomPackHash(random: SeededRandom): string {
  return Array.from({ length: 8 }, () => random.nextUint32().toString(16).padStart(8, '0')).join('');
}
