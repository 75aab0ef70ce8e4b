// Calibration of the seat's decision rule by simulation (a script, not a test):
//   node --import tsx bench/seat-calibration.ts [--cycles 1000] [--repeats 1] [--incumbent glm-5.2]
//        [--shared-sd 0.5] [--run-sd 1.0] [--confidence C (default: the seat's, 0.998)] [--no-sensitivity]
//        [--drift 0,0.05,0.1,0.2,0.3]
// (a) identical policies: how often does a challenger take the seat by luck? (target ≤ 1%)
// (b) a truly better challenger: at what advantage does it win 80% of cycles?
// (c) the curve of win rate against true advantage, as a table and an ASCII plot.
// (d) identical policies on a drifting upstream (the sim fleet's drift mode), under the old
//     sequential schedule and the interleaved one (fair pairing), side by side.
// The outcome model is documented in seat-sim-policies.ts. Every run is reproducible: all draws come
// from scoring/seeded-random.ts, and each cycle makes up a fresh pack-hash pair, so the bootstrap seed
// differs from cycle to cycle as it would between real challengers.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decideChallenge } from '../scoring/decision-rule.ts';
import { seatConfigSchema } from '../contracts/seat.ts';
import { SeededRandom } from '../scoring/seeded-random.ts';
import { loadAllowlist, type ModelEntry } from '../gateway/catalog/allowlist.ts';
import { scenariosDir } from '../common/data-layout.ts';
import { driftScales, schedulePositions, type PairingSchedule } from './pairing-schedule.ts';
import {
  drawEvaluation,
  drawSharedDifficulty,
  expectedTestsPassed,
  loadScenarioProfiles,
  policyLogits,
  randomPackHash,
  type NoiseModel,
  type ScenarioProfile,
} from './seat-sim-policies.ts';

const { values: options } = parseArgs({
  options: {
    cycles: { type: 'string', default: '1000' },
    repeats: { type: 'string', default: '1' },
    incumbent: { type: 'string', default: 'glm-5.2' },
    'shared-sd': { type: 'string', default: '0.5' },
    'run-sd': { type: 'string', default: '1.0' },
    confidence: { type: 'string', default: String(seatConfigSchema.shape.confidence.parse(undefined)) },
    'no-sensitivity': { type: 'boolean', default: false },
    drift: { type: 'string', default: '0,0.05,0.1,0.2,0.3' },
  },
});
const cycles = Number(options.cycles);
const repeats = Number(options.repeats);
const noise: NoiseModel = { sharedSd: Number(options['shared-sd']), runSd: Number(options['run-sd']) };
const confidence = Number(options.confidence);
const driftGrid = options.drift
  .split(',')
  .filter((text) => text.trim() !== '')
  .map(Number);
if (driftGrid.some((loss) => !(loss >= 0 && loss <= 1))) {
  console.error('usage: --drift L1,L2,… (each the share of competence lost over a cycle, 0 ≤ L ≤ 1)');
  process.exit(2);
}
if (
  !Number.isInteger(cycles) ||
  cycles < 1 ||
  !Number.isInteger(repeats) ||
  repeats < 1 ||
  !(noise.sharedSd >= 0) ||
  !(noise.runSd >= 0) ||
  !(confidence >= 0.5 && confidence < 1)
) {
  console.error(
    'usage: --cycles N (≥ 1) --repeats N (≥ 1) --shared-sd X (≥ 0) --run-sd X (≥ 0) --confidence C (0.5 ≤ C < 1)',
  );
  process.exit(2);
}

/** Percentage points of pass probability added to the challenger on every scenario. */
const advantageGrid = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20];
const decisionTimesMs: number[] = [];

interface CycleStats {
  wins: number;
  marginPassed: number;
  boundPassed: number;
  meanShare: number;
  meanDifference: number;
}

/** Runs `cycles` paired comparisons. The stream depends on the label only, not on the advantage:
 *  every row of a curve sees the same luck (common random numbers), so the curve is smooth. */
const simulated = new Map<string, CycleStats>();

interface Drift {
  totalLoss: number;
  schedule: PairingSchedule;
}

function simulate(
  scenarios: readonly ScenarioProfile[],
  model: ModelEntry,
  advantagePoints: number,
  noiseModel: NoiseModel,
  level: number,
  label: string,
  drift?: Drift,
): CycleStats {
  // The schedule is not in the stream's label: both schedules see the same luck, so a difference
  // between them is the schedule's alone.
  const streamLabel = `seat-calibration/${label}/${model.id}/${noiseModel.sharedSd}/${noiseModel.runSd}/${repeats}${drift ? `/drift-${drift.totalLoss}` : ''}`;
  const key = `${streamLabel}/${advantagePoints}/${level}${drift ? `/${drift.schedule}` : ''}`;
  const known = simulated.get(key);
  if (known) return known; // the same condition asked twice (e.g. by a sensitivity table) gives the same figures
  const random = SeededRandom.fromText(streamLabel);
  const incumbentLogits = policyLogits(model, scenarios);
  const challengerLogits = policyLogits(model, scenarios, advantagePoints / 100);
  const stats: CycleStats = { wins: 0, marginPassed: 0, boundPassed: 0, meanShare: 0, meanDifference: 0 };
  const positions = drift ? schedulePositions(drift.schedule, scenarios.length) : undefined;
  const scales =
    drift && positions
      ? {
          challenger: driftScales(positions.challenger, scenarios.length, drift.totalLoss),
          incumbent: driftScales(positions.incumbent, scenarios.length, drift.totalLoss),
        }
      : undefined;
  for (let cycle = 0; cycle < cycles; cycle++) {
    const incumbentPackHash = randomPackHash(random);
    const challengerPackHash = randomPackHash(random);
    const shared = drawSharedDifficulty(random, scenarios.length, noiseModel);
    const side = (packHash: string, logits: Float64Array, competenceScales?: Float64Array) =>
      Array.from({ length: repeats }, (_, r) =>
        drawEvaluation(
          random,
          scenarios,
          logits,
          shared,
          noiseModel,
          { packHash, workflowId: `cycle-${cycle}-${packHash.slice(0, 6)}-${r}` },
          competenceScales,
        ),
      );
    const incumbentRuns = side(incumbentPackHash, incumbentLogits, scales?.incumbent);
    const challengerRuns = side(challengerPackHash, challengerLogits, scales?.challenger);
    const started = performance.now();
    const decision = decideChallenge({
      incumbentPackHash,
      challengerPackHash,
      incumbent: incumbentRuns,
      challenger: challengerRuns,
      confidence: level,
    });
    decisionTimesMs.push(performance.now() - started);
    if (decision.outcome === 'no_decision') throw new Error(`unexpected no_decision: ${decision.reason}`);
    if (decision.outcome === 'challenger_takes_seat') stats.wins++;
    if (decision.passedMargin) stats.marginPassed++;
    if (decision.bootstrap.passed) stats.boundPassed++;
    stats.meanShare += decision.incumbentShare / cycles;
    stats.meanDifference += (decision.challengerTotal - decision.incumbentTotal) / cycles;
  }
  simulated.set(key, stats);
  return stats;
}

const percent = (count: number) => `${((100 * count) / cycles).toFixed(1)}%`;

/** Wilson score interval's upper end at 95%: how high the true rate could plausibly be. */
function wilsonUpper(successes: number, trials: number): number {
  const z = 1.96;
  const p = successes / trials;
  const centre = p + (z * z) / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials));
  return (centre + spread) / (1 + (z * z) / trials);
}

function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(cells[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** Horizontal bars, 50 characters for 100%, with the 80% target marked. */
function plot(points: { label: string; rate: number }[]): string {
  const width = 50;
  const target = Math.round(width * 0.8);
  const lines = points.map(({ label, rate }) => {
    const filled = Math.round(rate * width);
    const bar = Array.from({ length: width }, (_, i) => (i < filled ? '█' : i === target ? '┊' : ' ')).join('');
    return `${label.padStart(7)} |${bar}| ${(rate * 100).toFixed(1).padStart(5)}%`;
  });
  const axis = `${' '.repeat(9)}0%${' '.repeat(8)}20%${' '.repeat(7)}40%${' '.repeat(7)}60%${' '.repeat(7)}80%${' '.repeat(6)}100%`;
  return [...lines, axis].join('\n');
}

interface CurvePoint {
  advantage: number;
  expectedGain: number;
  rate: number;
}

/** Where the curve first reaches 80%, interpolated linearly between grid points, in pp and in tests. */
function crossing(curve: CurvePoint[], level = 0.8): string {
  const index = curve.findIndex((point) => point.rate >= level);
  if (index === -1) return `not reached by +${curve.at(-1)!.advantage} pp`;
  if (index === 0) return `+${curve[0]!.advantage} pp or less`;
  const low = curve[index - 1]!;
  const high = curve[index]!;
  const fraction = (level - low.rate) / (high.rate - low.rate);
  const at = low.advantage + fraction * (high.advantage - low.advantage);
  const gain = low.expectedGain + fraction * (high.expectedGain - low.expectedGain);
  return `≈ +${at.toFixed(1)} pp ≈ +${gain.toFixed(0)} expected tests (grid: ${(high.rate * 100).toFixed(1)}% at +${high.advantage} pp)`;
}

function curveFor(
  scenarios: readonly ScenarioProfile[],
  model: ModelEntry,
  noiseModel: NoiseModel,
  level: number,
  print: boolean,
): CurvePoint[] {
  const maxTotal = scenarios.reduce((sum, scenario) => sum + scenario.testsTotal, 0);
  const baseline = expectedTestsPassed(policyLogits(model, scenarios), scenarios);
  const rows: (string | number)[][] = [];
  const curve = advantageGrid.map((advantage) => {
    const stats = simulate(scenarios, model, advantage, noiseModel, level, 'curve');
    const expectedGain = expectedTestsPassed(policyLogits(model, scenarios, advantage / 100), scenarios) - baseline;
    rows.push([
      `+${advantage} pp`,
      expectedGain.toFixed(1),
      `${((100 * expectedGain) / maxTotal).toFixed(1)}%`,
      stats.meanDifference.toFixed(1),
      percent(stats.marginPassed),
      percent(stats.boundPassed),
      percent(stats.wins),
    ]);
    return { advantage, expectedGain, rate: stats.wins / cycles };
  });
  if (print) {
    console.log(table(['advantage', 'E[gain] tests', 'of max', 'mean C−I', 'margin ok', 'bound ok', 'win rate'], rows));
    console.log();
    console.log(plot(curve.map(({ advantage, rate }) => ({ label: `+${advantage} pp`, rate }))));
  }
  return curve;
}

function describeNoise(noiseModel: NoiseModel): string {
  return `shared scenario difficulty sd ${noiseModel.sharedSd}, run-to-run sd ${noiseModel.runSd} (logit scale)`;
}

const started = performance.now();
const { spec, scenarios } = await loadScenarioProfiles(path.resolve(scenariosDir));
const models = loadAllowlist().models;
const incumbentModel = models.find((model) => model.id === options.incumbent);
if (!incumbentModel) {
  console.error(
    `no model "${options.incumbent}" in the allowlist; choose one of ${models.map((model) => model.id).join(', ')}`,
  );
  process.exit(2);
}
const maxTotal = scenarios.reduce((sum, scenario) => sum + scenario.testsTotal, 0);

console.log(
  `Seat decision rule calibration — scenario set spec ${spec}: ${scenarios.length} scenarios, ${maxTotal} hidden tests`,
);
console.log(
  `${cycles} cycles per row, ${repeats} repeat(s) per side, 10,000 bootstrap resamples, ${confidence * 100}% one-sided bound`,
);
console.log(`policy = the sim fleet's solve probability of one model per scenario; noise: ${describeNoise(noise)}\n`);

console.log('(a) Identical policies: challenger and incumbent draw from the same profile (target: seat taken ≤ 1%)\n');
const identicalRows = models
  .map((model) => ({ model, expected: expectedTestsPassed(policyLogits(model, scenarios), scenarios) }))
  .sort((a, b) => b.expected - a.expected)
  .map(({ model, expected }) => {
    const stats = simulate(scenarios, model, 0, noise, confidence, 'identical');
    return [
      model.id,
      `${expected.toFixed(1)} (s ${(expected / maxTotal).toFixed(2)})`,
      stats.meanShare.toFixed(3),
      percent(stats.marginPassed),
      percent(stats.boundPassed),
      `${stats.wins}/${cycles} = ${percent(stats.wins)}`,
      `${(100 * wilsonUpper(stats.wins, cycles)).toFixed(1)}%`,
    ];
  });
console.log(
  table(['profile', 'E[tests passed]', 'mean s', 'margin ok', 'bound ok', 'seat taken', '95% upper'], identicalRows),
);

console.log(
  `\n(b, c) Challenger better by +x percentage points of pass probability on every scenario (capped at 99.5%);`,
);
console.log(
  `incumbent and challenger both on the ${incumbentModel.id} profile. E[gain] is the noise-free gain in tests.\n`,
);
const mainCurve = curveFor(scenarios, incumbentModel, noise, confidence, true);
console.log(`\n80% win rate reached at ${crossing(mainCurve)}`);

const midModel = models.find((model) => model.id === 'glm-5.3-flash');
if (midModel && midModel.id !== incumbentModel.id) {
  console.log(`\nThe same for a mid-table incumbent (${midModel.id}, full 3% margin):\n`);
  const midCurve = curveFor(scenarios, midModel, noise, confidence, true);
  console.log(`\n80% win rate reached at ${crossing(midCurve)}`);
}

if (!options['no-sensitivity']) {
  console.log(`\nSensitivity to the noise model (incumbent ${incumbentModel.id}):\n`);
  const variants: { name: string; model: NoiseModel }[] = [
    { name: 'binomial only', model: { sharedSd: 0, runSd: 0 } },
    { name: 'default', model: noise },
    { name: 'noisy runs', model: { sharedSd: noise.sharedSd, runSd: 2 } },
    { name: 'all-or-nothing (sim-like)', model: { sharedSd: noise.sharedSd, runSd: 4 } },
  ];
  const rows = variants.map(({ name, model }) => {
    const identical = simulate(scenarios, incumbentModel, 0, model, confidence, 'identical');
    const curve = curveFor(scenarios, incumbentModel, model, confidence, false);
    return [
      name,
      describeNoise(model),
      `${percent(identical.wins)} (≤ ${(100 * wilsonUpper(identical.wins, cycles)).toFixed(1)}%)`,
      crossing(curve),
    ];
  });
  console.log(table(['noise', 'parameters', 'identical: seat taken', '80% win rate at'], rows));

  // The bound's level, not δ, sets the false-seat rate: δ·I is a few tests, the noise in C − I many more.
  console.log(`\nSensitivity to the bootstrap confidence (incumbent ${incumbentModel.id}, default noise):\n`);
  const levelRows = [0.95, 0.99, 0.995, 0.998].map((level) => {
    const identical = simulate(scenarios, incumbentModel, 0, noise, level, 'identical');
    const curve = curveFor(scenarios, incumbentModel, noise, level, false);
    return [
      `${level * 100}%`,
      `${percent(identical.wins)} (≤ ${(100 * wilsonUpper(identical.wins, cycles)).toFixed(1)}%)`,
      crossing(curve),
    ];
  });
  console.log(table(['confidence', 'identical: seat taken', '80% win rate at'], levelRows));
}

if (driftGrid.length > 0) {
  console.log(
    `\n(d) Identical policies on a drifting upstream (incumbent profile ${incumbentModel.id}, default noise): the fleet loses`,
  );
  console.log(
    `the given share of its competence between the cycle's first and last scenario run (simfleet/model-drift.ts).`,
  );
  console.log(
    `sequential = the challenger's evaluation whole, then the incumbent's (the old seat); interleaved = scenario k of`,
  );
  console.log(`both sides together, the challenger first in each pair (fair pairing). Target: seat taken ≤ 1%.\n`);
  const driftRows = driftGrid.map((totalLoss) => {
    const row: (string | number)[] = [`${(totalLoss * 100).toFixed(0)}%`];
    for (const schedule of ['sequential', 'interleaved'] as const) {
      const stats = simulate(scenarios, incumbentModel, 0, noise, confidence, 'drift', { totalLoss, schedule });
      row.push(
        stats.meanDifference.toFixed(1),
        `${percent(stats.wins)} (≤ ${(100 * wilsonUpper(stats.wins, cycles)).toFixed(1)}%)`,
      );
    }
    return row;
  });
  console.log(
    table(
      [
        'drift over cycle',
        'sequential: mean C−I',
        'sequential: seat taken',
        'interleaved: mean C−I',
        'interleaved: seat taken',
      ],
      driftRows,
    ),
  );
}

const sorted = [...decisionTimesMs].sort((a, b) => a - b);
const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log(
  `\nRuntime per decision (decideChallenge, ${sorted.length} calls): mean ${(sorted.reduce((sum, t) => sum + t, 0) / sorted.length).toFixed(2)} ms, ` +
    `median ${quantile(0.5).toFixed(2)} ms, p99 ${quantile(0.99).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms`,
);
console.log(`Total bench time ${((performance.now() - started) / 1000).toFixed(1)} s`);
