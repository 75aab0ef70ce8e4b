// `trl report <workflow-id> [--out FILE]`: the run's result and its recorded conversations as one
// self-contained HTML page (cli/report/evaluation-report.ts), written beside result.json by default.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { evaluationReportFile } from '../../common/data-layout.ts';
import { joinTurns, type JoinedTurn } from '../trajectory/joined-turns.ts';
import { findReferencePoints } from '../report/reference-runs.ts';
import { renderEvaluationReport } from '../report/evaluation-report.ts';
import { loadEvaluationResult } from './show-command.ts';

export async function reportCommand(options: { workflowId: string; out?: string }): Promise<number> {
  const { result } = await loadEvaluationResult(options.workflowId);
  const turns: Record<string, JoinedTurn[]> = {};
  for (const scenario of result.perScenario) {
    const turnLog = scenario.artifacts.turnLog?.path;
    if (!turnLog || !existsSync(turnLog)) continue;
    const callLog = scenario.artifacts.modelCallLog?.path;
    turns[scenario.name] = joinTurns(
      await readFile(turnLog, 'utf8'),
      callLog && existsSync(callLog) ? await readFile(callLog, 'utf8') : '',
    );
  }
  const html = renderEvaluationReport({
    result,
    turns,
    references: await findReferencePoints(result),
    generatedAt: new Date().toISOString(),
  });
  const file = options.out ?? evaluationReportFile(result.workflowId);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, html);
  process.stdout.write(`${file}\n`);
  return 0;
}
