// docs/reference/metrics.md: the validator's own Prometheus metrics, from common/metrics.ts.
import { metricDefinitions } from '../../common/metrics.ts';
import { code, generatedHeader, markdownTable } from './markdown.ts';

export function metricsPage(): string {
  const rows = Object.values(metricDefinitions).map((metric) => [
    code(metric.name),
    metric.type,
    metric.labelNames.map(code).join(', '),
    `${metric.help}.${'buckets' in metric ? ` Buckets: ${metric.buckets.join(', ')}.` : ''}`,
  ]);
  return [
    generatedHeader('common/metrics.ts'),
    '# Metrics',
    '',
    "The worker serves these on `/metrics` when `TRL_METRICS_PORT` is set ([settings](settings.md)), with Node's",
    "process metrics (prefix `trl_process_`) and Temporal's SDK runtime metrics in the same scrape. Labels take only",
    'bounded values: statuses, allowlisted models, agent kinds, failure types.',
    '',
    markdownTable(['name', 'type', 'labels', 'help'], rows),
  ].join('\n');
}
