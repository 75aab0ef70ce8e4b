// `trl export <workflow-id> --format atif|sharegpt|jsonl [--scenario NAME]… [--out FILE]`: each
// scenario's agent conversation with the model calls behind every turn, one JSON object per line.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { EvaluationResult, ScenarioResult } from '../../contracts/results.ts';
import { joinTurns, toolsOffered } from '../trajectory/joined-turns.ts';
import {
  exportFormats,
  trajectoryRecord,
  type ExportFormat,
  type ScenarioTrajectory,
} from '../trajectory/trajectory-formats.ts';
import { loadEvaluationResult } from './show-command.ts';
import { UsageError } from '../usage-error.ts';

export function isExportFormat(value: string): value is ExportFormat {
  return (exportFormats as readonly string[]).includes(value);
}

/** The scenario's trajectory from its recorded logs, or why there is none. */
export async function scenarioTrajectory(
  result: EvaluationResult,
  scenario: ScenarioResult,
): Promise<ScenarioTrajectory | { missing: string }> {
  const turnLog = scenario.artifacts.turnLog?.path;
  if (!turnLog || !existsSync(turnLog))
    return { missing: `agent ${result.agent} went through no policy, or never started` };
  const callLog = scenario.artifacts.modelCallLog?.path;
  const calls = callLog && existsSync(callLog) ? await readFile(callLog, 'utf8') : '';
  return {
    context: {
      workflowId: result.workflowId,
      submissionId: result.submissionId,
      packHash: result.packHash,
      agent: result.agent,
      agentVersion: result.specManifest?.agent.version,
      manifestHash: result.manifestHash,
      scenario: scenario.name,
      status: scenario.status,
      testsPassed: scenario.testsPassed,
      testsTotal: scenario.testsTotal,
      costUsd: scenario.costUsd,
      tools: toolsOffered(calls),
    },
    turns: joinTurns(await readFile(turnLog, 'utf8'), calls),
  };
}

export async function exportCommand(options: {
  workflowId: string;
  format: string;
  scenarios: string[];
  out?: string;
}): Promise<number> {
  if (!isExportFormat(options.format))
    throw new UsageError(`--format must be one of ${exportFormats.join(', ')}; got "${options.format}"`);
  const { result } = await loadEvaluationResult(options.workflowId);
  const unknown = options.scenarios.filter((name) => !result.perScenario.some((s) => s.name === name));
  if (unknown.length)
    throw new UsageError(
      `${options.workflowId} has no scenario ${unknown.map((n) => `"${n}"`).join(', ')}; it ran ${result.perScenario.map((s) => s.name).join(', ') || 'none'}`,
    );
  const chosen = result.perScenario.filter((s) => !options.scenarios.length || options.scenarios.includes(s.name));
  const lines: string[] = [];
  for (const scenario of chosen) {
    const trajectory = await scenarioTrajectory(result, scenario);
    if ('missing' in trajectory) {
      process.stderr.write(`trl: ${scenario.name}: no conversation recorded (${trajectory.missing}); left out\n`);
      continue;
    }
    lines.push(JSON.stringify(trajectoryRecord(options.format, trajectory)));
  }
  const text = lines.length ? lines.join('\n') + '\n' : '';
  if (options.out) {
    await writeFile(options.out, text);
    process.stderr.write(
      `trl: ${lines.length} trajectory(ies) in ${options.format} format written to ${options.out}\n`,
    );
  } else process.stdout.write(text);
  return lines.length ? 0 : 1;
}
