// The order in which a sandbox host gives room to waiting scenarios (host-claims.ts): the longest first,
// by the seconds its task.toml grants the agent — the one figure every validator reads the same from the
// scenario alone. Read once per folder; a folder that cannot be read waits as the shortest (its prepare
// then says why). A paired evaluation's scenarios go by the seat's release order instead (pairedPriority).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseTaskToml } from '../catalog/load-scenario.ts';
import { maxTimeoutSec } from '../contracts/task-config.ts';

/** A task.toml larger than this is not read here (prepareScenario refuses it with the reason). */
const maxTaskTomlBytes = 256 * 1024;
/** Folders remembered; an evaluation has 26, a host sees a few hundred over months. */
const maxRemembered = 1_000;

/**
 * A paired evaluation's scenario, by its place in the seat's release order: both sides' scenario k before either
 * side's k + 1, and all of them before unpaired scenarios (ranked by seconds, at most maxTimeoutSec.agent): a paired
 * claim taken late holds its side's admitted scenarios idle at the seat's gate.
 */
export function pairedPriority(rank: number): number {
  const ranks = 100_000;
  return maxTimeoutSec.agent + ranks - Math.max(0, Math.min(Math.floor(rank), ranks - 1));
}

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
