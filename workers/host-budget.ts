// A sandbox host's budget for scenarios (activities/host-admission.ts) from its settings and this
// machine: TRL_HOST_MEMORY_BYTES (else three quarters of the memory), TRL_HOST_CPUS (else the cores),
// and a count cap (TRL_MAX_CONCURRENT_ACTIVITIES when set, else what the budget could hold of
// scenarios a quarter the calibrated size: the host queue's slots follow from it, and a claim must
// never wait there for a slot, which would read as a lost host).
import os from 'node:os';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';
import { scenariosWithin, type HostBudget, type ScenarioCost } from '../activities/host-admission.ts';

/** The most scenarios one host takes, whatever its budget. */
const scenarioCeiling = 100;

export function calibratedScenarioCost(env: NodeJS.ProcessEnv = process.env): ScenarioCost {
  return {
    memoryBytes: readSetting(workerSettings, 'TRL_SCENARIO_MEMORY_BYTES', env),
    cpus: readSetting(workerSettings, 'TRL_SCENARIO_CPUS', env),
  };
}

export function hostBudget(
  slotCap: number | undefined,
  calibrated: ScenarioCost,
  env: NodeJS.ProcessEnv = process.env,
  machine = { memoryBytes: os.totalmem(), cpus: os.availableParallelism() },
): HostBudget & { maxScenarios: number } {
  const resources = {
    memoryBytes: readSetting(workerSettings, 'TRL_HOST_MEMORY_BYTES', env) ?? Math.floor(machine.memoryBytes * 0.75),
    cpus: readSetting(workerSettings, 'TRL_HOST_CPUS', env) ?? machine.cpus,
  };
  const quarter = { memoryBytes: calibrated.memoryBytes / 4, cpus: calibrated.cpus / 4 };
  return { ...resources, maxScenarios: slotCap ?? Math.min(scenarioCeiling, scenariosWithin(resources, quarter)) };
}
