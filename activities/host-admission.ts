// Whether a sandbox host takes one more scenario: while the memory and the CPU share of the scenarios
// it holds, plus one more, fit its budget (and, when the operator sets one, a count), and the Docker
// engine's address pools have the networks they hold (sandbox/address-pools.ts). Pure: the host's
// claims (host-claims.ts) ask it, with each held scenario's cost as measured so far
// (sandbox/container-usage.ts) or the host's estimate. The refusal says which limit binds, in words
// that go to the claim's failure, the Temporal UI's pending activity and `trl seat`.

/** What one scenario holds on a host: agent container + policy sidecar + verifier. */
export interface ScenarioCost {
  memoryBytes: number;
  /** Cores used on average over the scenario's life (mostly waiting on models: a small share). */
  cpus: number;
}

/** What a host lends to scenarios. */
export interface HostBudget {
  memoryBytes: number;
  cpus: number;
  /** A cap on the count (TRL_MAX_CONCURRENT_ACTIVITIES when set, else the host queue's slots); none: the budget alone. */
  maxScenarios?: number;
  /** Docker networks the engine's address pools still give this host's scenarios (sandbox/address-pools.ts); none:
   * not counted. */
  networks?: number;
}

/** Docker networks one scenario holds: its run network and its policy network (sandbox/run-network.ts). */
export const scenarioNetworks = 2;

export type AdmissionLimit = 'memory' | 'cpu' | 'scenarios' | 'networks';

export type Admission = { admitted: true } | { admitted: false; limit: AdmissionLimit; reason: string };

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
const cores = (cpus: number) => `${cpus.toFixed(2)} cores`;

/** The sum of some costs. */
export function totalCost(costs: readonly ScenarioCost[]): ScenarioCost {
  return costs.reduce(
    (sum, cost) => ({ memoryBytes: sum.memoryBytes + cost.memoryBytes, cpus: sum.cpus + cost.cpus }),
    {
      memoryBytes: 0,
      cpus: 0,
    },
  );
}

/**
 * One more scenario costing `next` beside the `held` ones. An empty host always admits one: a budget
 * smaller than one scenario would otherwise hold every scenario back forever.
 */
export function admitScenario(budget: HostBudget, held: readonly ScenarioCost[], next: ScenarioCost): Admission {
  if (held.length === 0) return { admitted: true };
  const n = held.length;
  if (budget.maxScenarios !== undefined && n >= budget.maxScenarios)
    return {
      admitted: false,
      limit: 'scenarios',
      reason: `count: ${n} scenarios running, the host's cap of ${budget.maxScenarios}`,
    };
  if (budget.networks !== undefined && (n + 1) * scenarioNetworks > budget.networks)
    return {
      admitted: false,
      limit: 'networks',
      reason: `networks: ${n} scenarios hold ${n * scenarioNetworks} of the ${budget.networks} Docker networks the engine's address pools leave this host, one more needs ${scenarioNetworks}`,
    };
  const used = totalCost(held);
  if (used.memoryBytes + next.memoryBytes > budget.memoryBytes)
    return {
      admitted: false,
      limit: 'memory',
      reason: `memory: ${n} scenarios hold ${gib(used.memoryBytes)} of ${gib(budget.memoryBytes)}, one more needs ${gib(next.memoryBytes)}`,
    };
  if (used.cpus + next.cpus > budget.cpus)
    return {
      admitted: false,
      limit: 'cpu',
      reason: `cpu: ${n} scenarios use ${cores(used.cpus)} of ${cores(budget.cpus)}, one more needs ${cores(next.cpus)}`,
    };
  return { admitted: true };
}

/** Scenarios the budget admits at most, each costing `cost` (the host queue's slots follow from it). */
export function scenariosWithin(budget: HostBudget, cost: ScenarioCost): number {
  const byResources = Math.max(
    1,
    Math.floor(Math.min(budget.memoryBytes / cost.memoryBytes, cost.cpus > 0 ? budget.cpus / cost.cpus : Infinity)),
  );
  return budget.maxScenarios === undefined ? byResources : Math.min(byResources, budget.maxScenarios);
}

/** How many finished scenarios' measurements the estimate looks back on. */
export const estimateWindow = 20;
/** Measurements needed before they replace the calibrated default. */
export const estimateMinimumSamples = 3;
/** Headroom over the largest measured scenario: the next one may be a little larger. */
export const estimateHeadroom = 1.1;

/**
 * What the next scenario is expected to cost: the calibrated default until a few scenarios were
 * measured on this host, then the largest of the last `estimateWindow` measured, with headroom.
 */
export function estimateCost(calibrated: ScenarioCost, measured: readonly ScenarioCost[]): ScenarioCost {
  const recent = measured.slice(-estimateWindow);
  if (recent.length < estimateMinimumSamples) return calibrated;
  return {
    memoryBytes: Math.round(Math.max(...recent.map((cost) => cost.memoryBytes)) * estimateHeadroom),
    cpus: Math.max(...recent.map((cost) => cost.cpus)) * estimateHeadroom,
  };
}
