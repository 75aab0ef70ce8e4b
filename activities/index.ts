// All activities, built by one factory so only the worker creates clients (Docker) and passes them in.
import type { ActivityDependencies } from './activity-context.ts';
import { createPackActivities } from './pack-activities.ts';
import { createAggregate } from './aggregate-activity.ts';
import { createScenarioActivities } from './scenario-activities.ts';
import { classified } from './failures.ts';
import { createSeatActivities } from './seat-activities.ts';
import { hashScenarios } from './rerun-activities.ts';
import { createProbeActivity } from './probe-activity.ts';
import { createSandboxHostActivities } from './sandbox-host-activities.ts';
import { isTaskProblem } from './task-invalid.ts';
import { ApplicationFailure } from '@temporalio/common';
import { failureTypes } from '../contracts/failure-types.ts';
import type { PreparedScenario, ScenarioDescriptor } from '../contracts/results.ts';
import { publishArtifacts } from '../common/store/publish-artifacts.ts';
import { sharedBlobStore } from '../common/store/open-blob-store.ts';

/** The activity, with what its result references published to a shared store (common/store/publish-artifacts.ts), for
 * any machine to read by hash. */
function published<A extends unknown[], R>(activity: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const result = await activity(...args);
    await publishArtifacts(sharedBlobStore(), result);
    return result;
  };
}

/** prepareScenario's failures after which the workflow runs nothing more of the scenario. */
function endsScenario(error: unknown): boolean {
  return (
    isTaskProblem(error) ||
    (error instanceof ApplicationFailure && (error.nonRetryable || error.type === failureTypes.scenarioInvalid))
  );
}

export function createActivities(deps: ActivityDependencies) {
  const scenario = createScenarioActivities(deps);
  const pack = createPackActivities(deps);
  const seat = createSeatActivities(deps.seat);
  const host = createSandboxHostActivities(deps.sandboxHost);
  return {
    fetchPack: classified(pack.fetchPack),
    preEval: classified(published(pack.preEval)),
    probePolicy: classified(published(createProbeActivity(deps).probePolicy)),
    resolveScenarios: classified(scenario.resolveScenarios),
    // Not classified: it raises its own typed failure, and a full host is no infrastructure error to count.
    claimSandboxHost: host.claimSandboxHost,
    // A task that does not load or build ends its claim at once: nothing more of it will run.
    prepareScenario: classified(
      host.held((s: ScenarioDescriptor) => s.name, scenario.prepareScenario, false, endsScenario),
    ),
    runScenario: classified(
      host.held((r: { scenario: PreparedScenario }) => r.scenario.name, published(scenario.runScenario)),
    ),
    verifyScenario: classified(
      host.held((r: { scenario: PreparedScenario }) => r.scenario.name, published(scenario.verifyScenario), true),
    ),
    releaseSandboxHost: host.releaseSandboxHost,
    aggregate: classified(published(createAggregate(deps))),
    hashScenarios: classified(hashScenarios),
    recordSeatDecision: seat.recordSeatDecision,
    readChallengers: seat.readChallengers,
    offerChallenges: seat.offerChallenges,
    setSeatWeights: seat.setSeatWeights,
    setFallbackWeights: seat.setFallbackWeights,
  };
}

export type Activities = ReturnType<typeof createActivities>;

/** What each role's worker registers (docs/explanation/roles-and-queues.md). */
export const sandboxClaimActivityNames = ['claimSandboxHost'] as const;
/** Run on the shared sandbox queue too (any host: the scenario images are there); the orchestration role keeps them
 * for histories from before (workflows/evaluate-submission.ts probeOnSandboxHostsPatch). */
export const sandboxSharedActivityNames = ['probePolicy'] as const;
export const sandboxHostActivityNames = [
  'prepareScenario',
  'runScenario',
  'verifyScenario',
  'releaseSandboxHost',
] as const;
type SandboxActivityName = (typeof sandboxClaimActivityNames)[number] | (typeof sandboxHostActivityNames)[number];

export function activitiesOfRole<T extends Record<string, unknown>>(
  activities: T,
  role: 'orchestration' | 'sandbox-claim' | 'sandbox-host',
): Partial<T> {
  const sandbox: readonly string[] = [...sandboxClaimActivityNames, ...sandboxHostActivityNames];
  const names: readonly string[] =
    role === 'sandbox-claim'
      ? [...sandboxClaimActivityNames, ...sandboxSharedActivityNames]
      : role === 'sandbox-host'
        ? sandboxHostActivityNames
        : Object.keys(activities).filter((name) => !sandbox.includes(name as SandboxActivityName));
  return Object.fromEntries(Object.entries(activities).filter(([name]) => names.includes(name))) as Partial<T>;
}
