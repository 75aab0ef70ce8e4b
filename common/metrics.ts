// The validator's own Prometheus metrics: every name and label set is defined here once, and the
// places where things happen record through the small functions below. The registry lives in the
// worker process; workers/metrics-server.ts serves it (with Temporal's runtime metrics) when
// TRL_METRICS_PORT is set. Recording costs a map update whether or not anything is served.
// Labels take only bounded values (statuses, allowlisted models, agent kinds, failure types).
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'trl_process_' });

export const metricNames = {
  scenarios: 'trl_scenarios_total',
  spend: 'trl_model_spend_usd_total',
  modelCalls: 'trl_model_calls_total',
  gatewayLatency: 'trl_gateway_call_duration_seconds',
  infraErrors: 'trl_infra_errors_total',
  agentDuration: 'trl_agent_run_duration_seconds',
  verifierDuration: 'trl_verifier_run_duration_seconds',
} as const;

export interface MetricDefinition {
  type: 'counter' | 'histogram';
  name: string;
  /** What it counts or measures, and by what (Prometheus HELP; the reference page shows it). */
  help: string;
  labelNames: readonly string[];
  /** A histogram's bucket upper bounds, in the metric's unit. */
  buckets?: readonly number[];
}

/** Every metric of the validator's own, as served and as docs/reference/metrics.md lists them. */
export const metricDefinitions = {
  scenarios: {
    type: 'counter',
    name: metricNames.scenarios,
    help: 'Scenario results aggregated into evaluation results, by final status (reused results not counted again)',
    labelNames: ['status'],
  },
  spend: {
    type: 'counter',
    name: metricNames.spend,
    help: 'Model spend settled by the gateway, in USD, by model',
    labelNames: ['model'],
  },
  modelCalls: {
    type: 'counter',
    name: metricNames.modelCalls,
    help: 'Model calls that went through the gateway, by model and outcome (ok or the error type)',
    labelNames: ['model', 'outcome'],
  },
  gatewayLatency: {
    type: 'histogram',
    name: metricNames.gatewayLatency,
    help: 'Wall time of one gateway call from reservation to settlement, retries included, by model',
    labelNames: ['model', 'outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  },
  infraErrors: {
    type: 'counter',
    name: metricNames.infraErrors,
    help: "Infrastructure's failures (blame: infrastructure): activity failures by activity and type, upstream failures after the gateway's retries",
    labelNames: ['where', 'type'],
  },
  agentDuration: {
    type: 'histogram',
    name: metricNames.agentDuration,
    help: 'Wall time of the agent in its sandbox, per scenario attempt, by agent and outcome',
    labelNames: ['agent', 'outcome'],
    buckets: [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600],
  },
  verifierDuration: {
    type: 'histogram',
    name: metricNames.verifierDuration,
    labelNames: [],
    help: 'Wall time of the verifier in its fresh container, per scenario attempt that produced a report',
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
  },
} as const satisfies Record<string, MetricDefinition>;

const scenarios = new Counter({
  ...metricDefinitions.scenarios,
  labelNames: [...metricDefinitions.scenarios.labelNames],
  registers: [metricsRegistry],
});
const spend = new Counter({
  ...metricDefinitions.spend,
  labelNames: [...metricDefinitions.spend.labelNames],
  registers: [metricsRegistry],
});
const modelCalls = new Counter({
  ...metricDefinitions.modelCalls,
  labelNames: [...metricDefinitions.modelCalls.labelNames],
  registers: [metricsRegistry],
});
const gatewayLatency = new Histogram({
  ...metricDefinitions.gatewayLatency,
  labelNames: [...metricDefinitions.gatewayLatency.labelNames],
  buckets: [...metricDefinitions.gatewayLatency.buckets],
  registers: [metricsRegistry],
});
const infraErrors = new Counter({
  ...metricDefinitions.infraErrors,
  labelNames: [...metricDefinitions.infraErrors.labelNames],
  registers: [metricsRegistry],
});
const agentDuration = new Histogram({
  ...metricDefinitions.agentDuration,
  labelNames: [...metricDefinitions.agentDuration.labelNames],
  buckets: [...metricDefinitions.agentDuration.buckets],
  registers: [metricsRegistry],
});
const verifierDuration = new Histogram({
  ...metricDefinitions.verifierDuration,
  labelNames: [...metricDefinitions.verifierDuration.labelNames],
  buckets: [...metricDefinitions.verifierDuration.buckets],
  registers: [metricsRegistry],
});

export function recordScenarioResult(status: string): void {
  scenarios.inc({ status });
}

/** One gateway call settled: its cost (USD), the model that answered and how it ended. */
export function recordModelCall(call: { model: string; outcome: string; costUsd: number; latencyMs: number }): void {
  modelCalls.inc({ model: call.model, outcome: call.outcome });
  if (call.costUsd > 0) spend.inc({ model: call.model }, call.costUsd);
  gatewayLatency.observe({ model: call.model, outcome: call.outcome }, call.latencyMs / 1000);
}

export function recordInfraError(where: string, type: string): void {
  infraErrors.inc({ where, type });
}

export function recordAgentRun(run: { agent: string; outcome: string; wallMs: number }): void {
  agentDuration.observe({ agent: run.agent, outcome: run.outcome }, run.wallMs / 1000);
}

export function recordVerifierRun(wallMs: number): void {
  verifierDuration.observe(wallMs / 1000);
}
