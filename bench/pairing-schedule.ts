// When each scenario of a paired comparison reaches a drifting upstream, for the seat calibration.
// Positions count scenario runs in the order they reach the fleet within one cycle (2N for N
// scenarios). `sequential` (the old seat): the challenger's whole evaluation, then the incumbent's.
// `interleaved` (fair pairing): scenario k of both sides together; the challenger is put first in
// each pair, the case least kind to the incumbent. The drift is the sim fleet's own
// (simfleet/model-drift.ts): `totalLoss` of the competence is gone by the cycle's last run.
import { competenceScale } from '../simfleet/model-drift.ts';

export type PairingSchedule = 'sequential' | 'interleaved';

export function schedulePositions(
  schedule: PairingSchedule,
  scenarioCount: number,
): { challenger: number[]; incumbent: number[] } {
  const indices = Array.from({ length: scenarioCount }, (_, j) => j);
  if (schedule === 'sequential') return { challenger: indices, incumbent: indices.map((j) => scenarioCount + j) };
  return { challenger: indices.map((j) => 2 * j), incumbent: indices.map((j) => 2 * j + 1) };
}

/** The share of competence left at each position, for a fleet that loses `totalLoss` over 2N runs. */
export function driftScales(positions: readonly number[], scenarioCount: number, totalLoss: number): Float64Array {
  const drift = { competenceLossPerCall: totalLoss / (2 * scenarioCount), floor: 0 };
  return Float64Array.from(positions, (position) => competenceScale(drift, position));
}
