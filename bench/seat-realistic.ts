// The seat's false-dethrone and power figures on the realistic sim fleet (a script, not a test):
//   node --import tsx bench/seat-realistic.ts [--seeds 300] [--repeats 1] [--confidence C (default: the seat's)]
// bench/seat-calibration.ts draws outcomes from a noise model around the fleet's profiles; here every
// evaluation is played against the realistic fleet's agent itself (bench/realistic-play.ts, in-process,
// pretend tool results), so outcomes depend on what each policy sends, and the luck is the fleet's:
// whether a model solves is hash(seed, model, scenario) < p, the same draw for both sides at one seed.
// Tests per scenario: solved → all, a partial attempt → half (rounded down), wrong or none → 0 (the fleet's
// partial scripts pass part of the tests; half is this bench's simplification).
// Two ways of pairing a challenge's two evaluations:
//   shared seed: both sides at the same seed (the seat: repeat r of both sides runs at seed + r), one cycle
//     per seed; the luck is common, so only what the policies do differently can move the totals;
//   own seeds: each side at a seed of its own (drawn from the pool): what the seat would see if the sides'
//     luck were independent, as with a fleet of real models.
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/render-table.ts';
import { scenariosDir } from '../common/data-layout.ts';
import type { ScoredEvaluation } from '../contracts/seat.ts';
import { seatConfigSchema } from '../contracts/seat.ts';
import { decideChallenge } from '../scoring/decision-rule.ts';
import { SeededRandom } from '../scoring/seeded-random.ts';
import { loadSimScenarios } from '../simfleet/scenario-recognition.ts';
import { play, readSkill, type Variant } from './realistic-play.ts';
import { loadScenarioProfiles, randomPackHash } from './seat-sim-policies.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '300' },
    repeats: { type: 'string', default: '1' },
    confidence: { type: 'string', default: String(seatConfigSchema.shape.confidence.parse(undefined)) },
  },
});
const seeds = Number(values.seeds);
const repeats = Number(values.repeats);
const confidence = Number(values.confidence);
if (!Number.isInteger(seeds) || seeds < 2 || !Number.isInteger(repeats) || repeats < 1 || seeds < repeats + 1) {
  console.error('usage: --seeds N (≥ 2, > repeats) --repeats N (≥ 1) --confidence C');
  process.exit(2);
}

const scenarios = await loadSimScenarios();
const { scenarios: profiles } = await loadScenarioProfiles(scenariosDir);
const testsOf = new Map(profiles.map((p) => [p.name, p.testsTotal]));
const active = scenarios.filter((s) => testsOf.has(s.name));

const bareSkill = readSkill('policy/examples/pin-glm-flash/SKILL.md');
const incumbent: Variant = { name: 'pin glm-5.3-flash (pin-glm-flash)', writer: 'glm-5.3-flash', skill: bareSkill };
const challengers: { variant: Variant; what: string }[] = [
  { variant: incumbent, what: 'identical (same pack, new hash)' },
  {
    variant: { name: 'flash-guided', writer: 'glm-5.3-flash', skill: readSkill('bench/packs/flash-guided/SKILL.md') },
    what: 'same model, planning/verification notes (bench/packs/flash-guided)',
  },
  {
    variant: { name: 'flash-truncating', writer: 'glm-5.3-flash', skill: bareSkill, cutToolResults: true },
    what: 'same model, tool results cut at 600 chars (worse)',
  },
  { variant: { name: 'pin glm-5.2', writer: 'glm-5.2', skill: bareSkill }, what: 'pin glm-5.2 (another model)' },
  { variant: { name: 'pin kimi-k3', writer: 'kimi-k3', skill: bareSkill }, what: 'pin kimi-k3 (the strongest model)' },
];

/** Tests passed per active scenario, per seed: one evaluation of the variant at each seed of the pool. */
function pool(variant: Variant): Int32Array[] {
  return Array.from({ length: seeds }, (_, seed) =>
    Int32Array.from(active, (scenario) => {
      const total = testsOf.get(scenario.name)!;
      const result = play(variant, scenario, seed, scenarios);
      if (result.solved) return total;
      return result.attempt === 'partial' ? Math.floor(total / 2) : 0;
    }),
  );
}

function evaluation(passed: Int32Array, packHash: string, workflowId: string): ScoredEvaluation {
  const perScenario = active.map((scenario, j) => ({
    scenario: scenario.name,
    testsPassed: passed[j]!,
    testsTotal: testsOf.get(scenario.name)!,
  }));
  return {
    packHash,
    workflowId,
    status: 'completed',
    testsPassed: perScenario.reduce((sum, s) => sum + s.testsPassed, 0),
    testsTotal: perScenario.reduce((sum, s) => sum + s.testsTotal, 0),
    perScenario,
  };
}

const started = performance.now();
const incumbentPool = pool(incumbent);
const mean = (runs: Int32Array[]) => runs.reduce((sum, run) => sum + run.reduce((a, b) => a + b, 0), 0) / runs.length;
const maxTests = active.reduce((sum, s) => sum + testsOf.get(s.name)!, 0);

interface Row {
  challenger: string;
  incumbentMean: string;
  challengerMean: string;
  sharedWins: string;
  ownWins: string;
}
const rows: Row[] = [];
for (const { variant, what } of challengers) {
  const challengerPool = variant === incumbent ? incumbentPool : pool(variant);
  const random = SeededRandom.fromText(`seat-realistic/${variant.name}/${repeats}`);
  // Shared seed: cycle c uses seeds c·repeats … c·repeats + repeats − 1 on both sides.
  const sharedCycles = Math.floor(seeds / repeats);
  let sharedWins = 0;
  let ownWins = 0;
  for (let cycle = 0; cycle < sharedCycles; cycle++) {
    const incumbentHash = randomPackHash(random);
    const challengerHash = randomPackHash(random);
    const seedsOf = Array.from({ length: repeats }, (_, r) => cycle * repeats + r);
    const decide = (incumbentSeeds: number[], challengerSeeds: number[]) =>
      decideChallenge({
        incumbentPackHash: incumbentHash,
        challengerPackHash: challengerHash,
        incumbent: incumbentSeeds.map((s, r) => evaluation(incumbentPool[s]!, incumbentHash, `i-${cycle}-${r}`)),
        challenger: challengerSeeds.map((s, r) => evaluation(challengerPool[s]!, challengerHash, `c-${cycle}-${r}`)),
        confidence,
      });
    const shared = decide(seedsOf, seedsOf);
    if (shared.outcome === 'no_decision') throw new Error(`unexpected no_decision: ${shared.reason}`);
    if (shared.outcome === 'challenger_takes_seat') sharedWins++;
    // Own seeds: the challenger's drawn from the rest of the pool, so the two sides never share a seed.
    const others = Array.from({ length: repeats }, () => {
      let seed: number;
      do seed = Math.floor(random.nextFloat() * seeds);
      while (seedsOf.includes(seed));
      return seed;
    });
    const own = decide(seedsOf, others);
    if (own.outcome === 'no_decision') throw new Error(`unexpected no_decision: ${own.reason}`);
    if (own.outcome === 'challenger_takes_seat') ownWins++;
  }
  const percent = (count: number) => `${((100 * count) / sharedCycles).toFixed(1)}%`;
  rows.push({
    challenger: what,
    incumbentMean: mean(incumbentPool).toFixed(1),
    challengerMean: mean(challengerPool).toFixed(1),
    sharedWins: `${percent(sharedWins)} (${sharedWins}/${sharedCycles})`,
    ownWins: `${percent(ownWins)} (${ownWins}/${sharedCycles})`,
  });
}

process.stdout.write(
  `${active.length} scenarios (${maxTests} tests), ${seeds} seeds, repeats ${repeats}, confidence ${confidence}; ` +
    `incumbent ${incumbent.name}; ${((performance.now() - started) / 1000).toFixed(0)} s\n` +
    renderTable(
      [
        { header: 'challenger', value: (r: Row) => r.challenger },
        { header: 'incumbent tests (mean)', value: (r) => r.incumbentMean, align: 'right' },
        { header: 'challenger tests (mean)', value: (r) => r.challengerMean, align: 'right' },
        { header: 'takes the seat, shared seed', value: (r) => r.sharedWins, align: 'right' },
        { header: 'takes the seat, own seeds', value: (r) => r.ownWins, align: 'right' },
      ],
      rows,
    ) +
    '\n',
);
