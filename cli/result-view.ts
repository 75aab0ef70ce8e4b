// The per-scenario table and totals printed at the end of `trl eval`.
import type { EvaluationResult, ScenarioResult } from '../contracts/results.ts';
import { renderTable } from './render-table.ts';

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

export function renderEvaluation(result: EvaluationResult): string {
  if (result.status === 'rejected') {
    const reasons = (result.rejection ?? []).map((r) => `  - [${r.code}] ${r.message}`).join('\n');
    return `Pack rejected before any scenario ran:\n${reasons}`;
  }
  const totals: ScenarioResult = {
    name: 'total',
    status: result.status === 'completed' ? 'completed' : 'infra_error',
    testsPassed: result.testsPassed,
    testsTotal: result.testsTotal,
    costUsd: result.costUsd,
    agentWallMs: result.perScenario.reduce((t, s) => t + s.agentWallMs, 0),
    verifierWallMs: result.perScenario.reduce((t, s) => t + s.verifierWallMs, 0),
    artifacts: {},
  };
  const table = renderTable<ScenarioResult>(
    [
      { header: 'scenario', value: (s) => s.name },
      { header: 'category', value: (s) => s.category ?? '' },
      { header: 'difficulty', value: (s) => s.difficulty ?? '' },
      { header: 'status', value: (s) => (s.name === 'total' ? result.status : s.status) },
      {
        header: 'passed',
        // A task that did not run: its own test count when known, nothing passed or failed.
        value: (s) =>
          s.status === 'task_invalid' ? `–/${s.testsDeclared ?? '?'}` : `${s.testsPassed}/${s.testsTotal}`,
        align: 'right',
      },
      { header: 'cost $', value: (s) => s.costUsd.toFixed(4), align: 'right' },
      { header: 'agent s', value: (s) => seconds(s.agentWallMs), align: 'right' },
      { header: 'verify s', value: (s) => seconds(s.verifierWallMs), align: 'right' },
    ],
    result.perScenario,
    totals,
  );
  const errors = result.perScenario.filter((s) => s.error).map((s) => `  ${s.name}: ${s.error}`);
  // The table's costs are each scenario's final attempt; the ledger also counts retried attempts.
  const ledger =
    result.ledgerCostUsd !== undefined && result.ledgerCostUsd.toFixed(4) !== result.costUsd.toFixed(4)
      ? [`spent including retried attempts: $${result.ledgerCostUsd.toFixed(4)} (spend ledger)`]
      : [];
  const stopped = result.stoppedReason ? [`stopped: ${result.stoppedReason}`] : [];
  const models = Object.entries(result.costByModelUsd ?? {}).sort(([, a], [, b]) => b - a);
  const byModel = models.length
    ? [`spend by model: ${models.map(([model, usd]) => `${model} $${usd.toFixed(4)}`).join(', ')}`]
    : [];
  const pricing = result.priceTableHash
    ? [
        `price table ${result.priceTableHash.slice(0, 12)}…${result.official === false ? ' (operator override: unofficial)' : ''}`,
      ]
    : [];
  const manifest = result.manifestHash
    ? [
        `spec manifest ${result.manifestHash.slice(0, 12)}… (scenarios, images, agent ${result.specManifest?.agent.version ?? '?'}, prices, cap)`,
      ]
    : [];
  return [
    table,
    ...byModel,
    ...pricing,
    ...manifest,
    ...ledger,
    ...stopped,
    ...(errors.length ? ['', 'errors:', ...errors] : []),
  ].join('\n');
}
