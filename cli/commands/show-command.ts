// `trl show <workflow-id> [--scenario NAME]`: the per-scenario table from result.json, every
// artifact's path, and with --scenario that scenario's conversation turn by turn.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { evaluationResultFile } from '../../common/data-layout.ts';
import type { EvaluationResult } from '../../contracts/results.ts';
import { renderEvaluation } from '../result-view.ts';
import { renderConversation } from '../conversation-view.ts';
import { connectTemporal } from '../temporal-connection.ts';
import { UsageError } from '../usage-error.ts';

/** result.json of a run: in this data directory, else where the run's memo says it was written. */
export async function loadEvaluationResult(workflowId: string): Promise<{ result: EvaluationResult; file: string }> {
  let file = evaluationResultFile(workflowId);
  if (!existsSync(file)) {
    const { client, connection } = await connectTemporal();
    try {
      const description = await client.workflow
        .getHandle(workflowId)
        .describe()
        .catch(() => undefined);
      if (!description)
        throw new UsageError(
          `no evaluation "${workflowId}": neither ${file} nor a workflow in Temporal; \`trl runs\` lists evaluations`,
        );
      const memo = (description.memo ?? {}) as { result?: { resultFile?: string } };
      const recorded = memo.result?.resultFile;
      if (!recorded || !existsSync(recorded)) {
        throw new UsageError(
          `${workflowId} is ${description.status.name.toLowerCase()} and has no result.json here${recorded ? ` (its memo names ${recorded})` : ''}`,
        );
      }
      file = recorded;
    } finally {
      await connection.close();
    }
  }
  return { result: JSON.parse(await readFile(file, 'utf8')) as EvaluationResult, file };
}

export function renderArtifacts(result: EvaluationResult, resultFile: string): string {
  const lines = [`result: ${resultFile}`];
  for (const scenario of result.perScenario) {
    const entries = Object.entries(scenario.artifacts);
    if (!entries.length) continue;
    lines.push(`${scenario.name}:${scenario.reusedFrom ? ` (reused from ${scenario.reusedFrom})` : ''}`);
    for (const [name, ref] of entries) lines.push(`  ${name.padEnd(15)} ${ref.path}`);
  }
  return lines.join('\n');
}

export async function showCommand(options: {
  workflowId: string;
  scenario?: string;
  maxChars: number;
  json: boolean;
}): Promise<number> {
  const { result, file } = await loadEvaluationResult(options.workflowId);
  if (!options.scenario) {
    if (options.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else
      process.stdout.write(
        `${result.workflowId}: ${result.status}, pack ${result.packHash ?? '—'}, agent ${result.agent}\n\n${renderEvaluation(result)}\n\n${renderArtifacts(result, file)}\n`,
      );
    return 0;
  }
  const scenario = result.perScenario.find((s) => s.name === options.scenario);
  if (!scenario)
    throw new UsageError(
      `${options.workflowId} has no scenario "${options.scenario}"; it ran ${result.perScenario.map((s) => s.name).join(', ') || 'none'}`,
    );
  if (options.json) {
    process.stdout.write(JSON.stringify(scenario, null, 2) + '\n');
    return 0;
  }
  const header = `${scenario.name}: ${scenario.status}, ${scenario.testsPassed}/${scenario.testsTotal} tests, $${scenario.costUsd.toFixed(4)}${scenario.error ? `\nerror: ${scenario.error}` : ''}`;
  const turnLog = scenario.artifacts.turnLog?.path;
  const callLog = scenario.artifacts.modelCallLog?.path;
  if (!turnLog || !existsSync(turnLog)) {
    process.stdout.write(
      `${header}\n(no conversation recorded: agent ${result.agent} does not go through a policy, or the agent never started)\n`,
    );
    return 0;
  }
  const calls = callLog && existsSync(callLog) ? await readFile(callLog, 'utf8') : '';
  process.stdout.write(
    `${header}\n\n${renderConversation(await readFile(turnLog, 'utf8'), calls, { maxChars: options.maxChars })}\n`,
  );
  return 0;
}
