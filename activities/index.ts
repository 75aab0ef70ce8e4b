// All activities, built by one factory so only the worker creates clients (Docker) and passes them in.
import type { ActivityDependencies } from './activity-context.ts';
import { createPackActivities } from './pack-activities.ts';
import { createAggregate } from './aggregate-activity.ts';
import { createScenarioActivities } from './scenario-activities.ts';
import { classified } from './failures.ts';
import { createSeatActivities } from './seat-activities.ts';
import { hashScenarios } from './rerun-activities.ts';
import { createProbeActivity } from './probe-activity.ts';

export function createActivities(deps: ActivityDependencies) {
  const scenario = createScenarioActivities(deps);
  const pack = createPackActivities(deps);
  const seat = createSeatActivities(deps.seat);
  return {
    fetchPack: classified(pack.fetchPack),
    preEval: classified(pack.preEval),
    probePolicy: classified(createProbeActivity(deps).probePolicy),
    resolveScenarios: classified(scenario.resolveScenarios),
    prepareScenario: classified(scenario.prepareScenario),
    runScenario: classified(scenario.runScenario),
    verifyScenario: classified(scenario.verifyScenario),
    aggregate: classified(createAggregate(deps)),
    hashScenarios: classified(hashScenarios),
    recordSeatDecision: seat.recordSeatDecision,
    readChallengers: seat.readChallengers,
    offerChallenges: seat.offerChallenges,
    setSeatWeights: seat.setSeatWeights,
    setFallbackWeights: seat.setFallbackWeights,
  };
}

export type Activities = ReturnType<typeof createActivities>;
