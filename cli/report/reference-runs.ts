// Reference policies for a report's score-vs-cost chart: the newest local result of each reference
// example (the cheapest pin, a flash pin, the strongest pin) run by the same agent on every scenario
// of the reported run, counted over exactly those scenarios so the points compare like with like.
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { artifactsRoot, evaluationResultFile, examplesDir } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { readLocalPack } from '../../packs/read-pack.ts';
import { packHash } from '../../packs/canonical-pack.ts';

export const referenceExamples = [
  { example: 'cheapest-model', label: 'cheapest pin (cheapest-model)' },
  { example: 'pin-glm-flash', label: 'flash pin (pin-glm-flash)' },
  { example: 'single-model', label: 'strongest pin (single-model, kimi-k3)' },
] as const;

/** How many of the newest runs are looked at: enough for a working data directory, bounded for an old one. */
const maxRunsScanned = 500;

export interface ReferencePoint {
  label: string;
  workflowId: string;
  testsPassed: number;
  testsTotal: number;
  costUsd: number;
}

/** A reference result restricted to the reported run's scenarios, or undefined when it lacks one of them. */
export function comparablePoint(
  reported: EvaluationResult,
  candidate: EvaluationResult,
  label: string,
): ReferencePoint | undefined {
  // The reported policy itself is no reference for itself.
  if (
    candidate.workflowId === reported.workflowId ||
    candidate.packHash === reported.packHash ||
    candidate.agent !== reported.agent ||
    candidate.status === 'rejected'
  )
    return undefined;
  const scenarios = reported.perScenario.map((s) =>
    candidate.perScenario.find(
      (c) =>
        c.name === s.name &&
        c.status !== 'infra_error' &&
        c.status !== 'ceiling_reached' &&
        c.status !== 'task_invalid',
    ),
  );
  if (!scenarios.length || scenarios.some((s) => s === undefined)) return undefined;
  return {
    label,
    workflowId: candidate.workflowId,
    testsPassed: scenarios.reduce((t, s) => t + s!.testsPassed, 0),
    testsTotal: scenarios.reduce((t, s) => t + s!.testsTotal, 0),
    costUsd: Math.round(scenarios.reduce((t, s) => t + s!.costUsd, 0) * 1e6) / 1e6,
  };
}

/** The newest comparable local result of each reference example that has one. */
export async function findReferencePoints(reported: EvaluationResult): Promise<ReferencePoint[]> {
  const hashes = new Map<string, string>();
  for (const { example, label } of referenceExamples) {
    const dir = path.join(examplesDir, example);
    if (existsSync(dir)) hashes.set(packHash(await readLocalPack(dir)), label);
  }
  if (!existsSync(artifactsRoot)) return [];
  const runs = await Promise.all(
    (await readdir(artifactsRoot)).map(async (name) => {
      const file = evaluationResultFile(name);
      return {
        file,
        mtimeMs: await stat(file).then(
          (s) => s.mtimeMs,
          () => -1,
        ),
      };
    }),
  );
  const newestFirst = runs
    .filter((r) => r.mtimeMs >= 0)
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .slice(0, maxRunsScanned);
  const found = new Map<string, ReferencePoint>();
  for (const run of newestFirst) {
    if (found.size === hashes.size) break;
    let candidate: EvaluationResult;
    try {
      candidate = JSON.parse(await readFile(run.file, 'utf8')) as EvaluationResult;
    } catch {
      continue; // a result being written, or not ours
    }
    const label = candidate.packHash ? hashes.get(candidate.packHash) : undefined;
    if (!label || found.has(label) || !Array.isArray(candidate.perScenario)) continue;
    const point = comparablePoint(reported, candidate, label);
    if (point) found.set(label, point);
  }
  return referenceExamples.map((r) => found.get(r.label)).filter((p): p is ReferencePoint => p !== undefined);
}
