// The order in which a sandbox host gives room to waiting scenarios (host-claims.ts): the longest first,
// by the seconds its task.toml grants the agent — the one figure every validator reads the same from the
// scenario alone. Read once per folder; a folder that cannot be read waits as the shortest (its prepare
// then says why).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseTaskToml } from '../catalog/load-scenario.ts';

/** A task.toml larger than this is not read here (prepareScenario refuses it with the reason). */
const maxTaskTomlBytes = 256 * 1024;
/** Folders remembered; an evaluation has 26, a host sees a few hundred over months. */
const maxRemembered = 1_000;

export function createClaimPriority(): (scenarioDir: string | undefined) => Promise<number> {
  const known = new Map<string, number>();
  return async (scenarioDir) => {
    if (!scenarioDir) return 0;
    const remembered = known.get(scenarioDir);
    if (remembered !== undefined) return remembered;
    const priority = await agentTimeoutSec(scenarioDir).catch(() => 0);
    if (known.size >= maxRemembered) known.delete(known.keys().next().value!);
    known.set(scenarioDir, priority);
    return priority;
  };
}

async function agentTimeoutSec(scenarioDir: string): Promise<number> {
  const file = path.join(scenarioDir, 'task.toml');
  if ((await stat(file)).size > maxTaskTomlBytes) return 0;
  return parseTaskToml(path.basename(scenarioDir), await readFile(file, 'utf8')).agent.timeout_sec;
}
