// Which earlier scenario results a rerun may use instead of running them. Pure, and free of zod and
// Node built-ins: the evaluation workflow imports it.
import type { ReusedScenario, ReuseKey } from './submission.ts';

/** The offered results a rerun may use: same pack, spec, seed and agent, and the scenario's content unchanged. */
export function reusableResults(
  offered: readonly ReusedScenario[],
  run: Omit<ReuseKey, 'scenarioHash'>,
  scenarioHashes: Record<string, string>,
): Map<string, ReusedScenario> {
  const usable = new Map<string, ReusedScenario>();
  for (const entry of offered) {
    const { key, result } = entry;
    if (key.packHash !== run.packHash || key.spec !== run.spec || key.seed !== run.seed || key.agent !== run.agent)
      continue;
    // A rescore exists because the verifier changed: the content hash (tests included) may differ.
    if (entry.mode !== 'verify' && (!scenarioHashes[result.name] || key.scenarioHash !== scenarioHashes[result.name]))
      continue;
    usable.set(result.name, entry);
  }
  return usable;
}
