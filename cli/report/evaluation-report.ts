// `trl report`: one evaluation as a self-contained HTML page. Pure: the result, each scenario's
// joined turns and the reference points in, the page out (cli/commands/report-command.ts reads them).
import type { EvaluationResult } from '../../contracts/results.ts';
import type { JoinedTurn } from '../trajectory/joined-turns.ts';
import type { ReferencePoint } from './reference-runs.ts';
import { escapeHtml, htmlPage, htmlTable, usd } from './html-page.ts';
import {
  barChart,
  legend,
  modelColor,
  passedBars,
  routingTimeline,
  scatterChart,
  type TimelineLane,
} from './svg-charts.ts';

export interface EvaluationReportInput {
  result: EvaluationResult;
  /** Joined turns per scenario name; absent for scenarios whose agent went through no policy. */
  turns: Record<string, JoinedTurn[]>;
  references: ReferencePoint[];
  generatedAt: string;
}

function card(value: string, label: string): string {
  return `<div class="card"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`;
}

/** Spend by model over the whole run: the result's own sums, else the scenarios' (older results). */
export function spendByModel(result: EvaluationResult): [string, number][] {
  const totals = new Map<string, number>(Object.entries(result.costByModelUsd ?? {}));
  if (!totals.size)
    for (const s of result.perScenario)
      for (const [model, cost] of Object.entries(s.costByModelUsd ?? {}))
        totals.set(model, (totals.get(model) ?? 0) + cost);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

function timelineLanes(input: EvaluationReportInput): { lanes: TimelineLane[]; models: string[]; calls: number } {
  const models = new Set<string>();
  let calls = 0;
  const lanes = input.result.perScenario
    .filter((s) => input.turns[s.name]?.length)
    .map((s) => ({
      label: s.name,
      turns: input.turns[s.name]!.map((turn) => {
        const answered = turn.calls.filter((c) => c.status === 'ok');
        calls += turn.calls.length;
        for (const c of turn.calls) models.add(c.model);
        const detail =
          turn.calls
            .map(
              (c) =>
                `${c.model} ${c.status}${c.errorType ? ` (${c.errorType})` : ''} ${usd(c.costUsd)} ${c.latencyMs} ms`,
            )
            .join('; ') || 'no model call';
        return {
          title: `${s.name} · turn ${turn.turn} (${turn.requestId}): ${detail}${turn.error ? ` · error ${turn.error.kind}` : ''}`,
          segments: (answered.length ? answered : turn.calls).map((c) => ({
            color: c.status === 'ok' ? modelColor(c.model) : '#d0d5dd',
          })),
        };
      }),
    }));
  return { lanes, models: [...models].sort(), calls };
}

export function renderEvaluationReport(input: EvaluationReportInput): string {
  const { result } = input;
  const title = `Evaluation ${result.workflowId}`;
  const parts: string[] = [];
  parts.push(`<h1>${escapeHtml(title)}</h1>`);
  parts.push(
    `<p class="meta">status <b class="${result.status === 'completed' ? 'ok' : 'bad'}">${escapeHtml(result.status)}</b> · pack <code>${escapeHtml(result.packHash ?? '—')}</code> · agent ${escapeHtml(result.agent)}` +
      `${result.scenarioSpec != null ? ` · scenario spec ${escapeHtml(result.scenarioSpec)}` : ''}` +
      `${result.manifestHash ? ` · spec manifest <code>${escapeHtml(result.manifestHash.slice(0, 16))}…</code>` : ''}` +
      `${result.official === false ? ' · <b class="bad">unofficial prices or cap</b>' : ''} · generated ${escapeHtml(input.generatedAt)}</p>`,
  );
  parts.push(
    `<div class="cards">${card(`${result.testsPassed}/${result.testsTotal}`, 'tests passed')}${card(usd(result.costUsd), 'model spend')}${card(String(result.perScenario.length), 'scenarios')}${card(String(result.perScenario.filter((s) => s.status !== 'completed').length), 'not completed')}</div>`,
  );
  if (result.rejection?.length)
    parts.push(
      `<h2>Rejected</h2>${htmlTable(
        ['code', 'reason'],
        result.rejection.map((r) => [r.code, r.message]),
      )}`,
    );

  if (result.perScenario.length) {
    parts.push('<h2 id="scenarios">Tests passed and cost per scenario</h2>');
    parts.push(
      passedBars(
        result.perScenario.map((s) => ({
          label: s.name,
          passed: s.testsPassed,
          total: s.testsTotal,
          note: usd(s.costUsd),
        })),
        { label: 'tests passed per scenario' },
      ),
    );
    parts.push(
      htmlTable(
        ['scenario', 'status', 'passed', 'total', 'cost $', 'agent s', 'verify s', 'turns'],
        result.perScenario.map((s) => [
          s.name,
          {
            html: `<span class="${s.status === 'completed' ? 'ok' : 'bad'}">${escapeHtml(s.status)}</span>${s.error ? `<br><span class="note">${escapeHtml(s.error.slice(0, 300))}</span>` : ''}${s.reusedFrom ? `<br><span class="note">reused from ${escapeHtml(s.reusedFrom)}</span>` : ''}`,
          },
          s.testsPassed,
          s.testsTotal,
          s.costUsd.toFixed(4),
          (s.agentWallMs / 1000).toFixed(1),
          (s.verifierWallMs / 1000).toFixed(1),
          input.turns[s.name]?.length ?? '—',
        ]),
        { numericFrom: 2 },
      ),
    );
  }

  const spend = spendByModel(result);
  parts.push('<h2 id="spend">Spend by model</h2>');
  parts.push(
    spend.length
      ? barChart(
          spend.map(([model, cost]) => ({ label: model, value: cost, color: modelColor(model), text: usd(cost) })),
          { label: 'spend by model' },
        )
      : '<p class="note">no model spend recorded (an agent that calls no model, or a run at $0)</p>',
  );

  const { lanes, models, calls } = timelineLanes(input);
  parts.push('<h2 id="routing">Routing timeline: which model answered each turn</h2>');
  if (lanes.length) {
    parts.push(
      `<p class="note">one row per scenario, one cell per agent turn (request to the policy); a cell is split among the models whose answers the policy took; grey: only failed or refused calls, or none. ${calls} model call(s) in all. Hover a cell for the calls.</p>`,
    );
    parts.push(legend(models.map((m) => ({ label: m, color: modelColor(m) }))));
    parts.push(routingTimeline(lanes, { label: 'routing timeline' }));
  } else parts.push('<p class="note">no conversation recorded: this agent went through no policy</p>');

  parts.push('<h2 id="references">Score against cost, beside reference policies</h2>');
  const points = [
    { x: result.costUsd, y: result.testsPassed, label: 'this run', highlight: true },
    ...input.references.map((r) => ({ x: r.costUsd, y: r.testsPassed, label: r.label, highlight: false })),
  ];
  parts.push(
    scatterChart(points, {
      label: 'tests passed against cost',
      xLabel: 'model spend (USD)',
      yLabel: 'tests passed',
      formatX: (v) => usd(v, 3),
    }),
  );
  parts.push(
    input.references.length
      ? htmlTable(
          ['policy', 'run', 'tests', 'cost $'],
          [
            ['this run', result.workflowId, `${result.testsPassed}/${result.testsTotal}`, result.costUsd.toFixed(4)],
            ...input.references.map((r) => [
              r.label,
              r.workflowId,
              `${r.testsPassed}/${r.testsTotal}`,
              r.costUsd.toFixed(4),
            ]),
          ],
          { numericFrom: 2 },
        )
      : '<p class="note">no reference results here: evaluate policy/examples/cheapest-model, pin-glm-flash or single-model with the same agent on these scenarios to see them beside this run</p>',
  );
  return htmlPage(title, parts.join('\n'));
}
