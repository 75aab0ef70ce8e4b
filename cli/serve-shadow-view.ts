// Shadow mode's side-by-side table: the live policy and the shadow on the same mirrored requests.
import { renderTable } from './render-table.ts';
import type { ShadowSide, ShadowSummary } from '../serving/shadow-mirror.ts';

/** A pack's latest scenario score (its newest finished evaluation), when Temporal has one. */
export interface ScenarioScore {
  testsPassed: number;
  testsTotal: number;
  workflowId: string;
}

export function renderShadowSummary(
  summary: ShadowSummary,
  scores: { live?: ScenarioScore; shadow?: ScenarioScore } = {},
): string {
  const rows = [
    { name: 'live (seated)', ...summary.live, score: scores.live },
    { name: `shadow ${summary.shadowPack.slice(0, 12)}…`, ...summary.shadow, score: scores.shadow },
  ];
  const topModels = (side: ShadowSide) =>
    Object.entries(side.models)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([model, count]) => `${model} ×${count}`)
      .join(', ') || '—';
  return [
    `shadow mode: ${summary.shadow.requests} request(s) mirrored (${(summary.sampleRate * 100).toFixed(0)}% of conversations; skipped ${summary.skippedBusy} busy, ${summary.skippedCap} past the $${summary.capUsd} cap)`,
    renderTable<(typeof rows)[number]>(
      [
        { header: 'policy', value: (r) => r.name },
        { header: 'requests', value: (r) => r.requests, align: 'right' },
        { header: 'failed', value: (r) => r.failed, align: 'right' },
        { header: 'p50 ms', value: (r) => r.latencyP50Ms, align: 'right' },
        { header: 'p99 ms', value: (r) => r.latencyP99Ms, align: 'right' },
        { header: '$ / request', value: (r) => r.costPerRequestUsd.toFixed(6), align: 'right' },
        { header: '$ total', value: (r) => r.costUsd.toFixed(6), align: 'right' },
        { header: 'models', value: (r) => topModels(r) },
        {
          header: 'scenario score',
          value: (r) => (r.score ? `${r.score.testsPassed}/${r.score.testsTotal} (${r.score.workflowId})` : '—'),
        },
      ],
      rows,
    ),
  ].join('\n');
}
