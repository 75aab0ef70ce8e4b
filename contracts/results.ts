import { z } from 'zod';
import { artifactRefSchema } from './artifact.ts';
import type { ProvenanceSummary } from './provenance.ts';
import type { InjectionSummary } from './injection.ts';
import type { SpecManifest } from './spec-manifest.ts';

export const rejectionSchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type Rejection = z.infer<typeof rejectionSchema>;

export const packRefSchema = z.object({
  packHash: z.string(),
  /** The canonical JSON form, content-addressed in the pack store. */
  canonical: artifactRefSchema,
  fileCount: z.number().int(),
  name: z.string().optional(),
  /** Decided by the pack's one entry (policy.ts / policy.py / policy.json); absent when none decides it (pre-eval
   * rejects). */
  kind: z.enum(['typescript', 'python', 'data']).optional(),
  /** TypeScript packs: the esbuild bundle run in the policy sandbox, built once when the pack is fetched. */
  bundle: artifactRefSchema.optional(),
});
export type PackRef = z.infer<typeof packRefSchema>;

/** Pre-evaluation's verdict; the full report (scan evidence, similarity, judge flags) is an artifact. */
export type PreEvalResult =
  | { verdict: 'pass'; report: z.infer<typeof artifactRefSchema> }
  | { verdict: 'reject'; reasons: Rejection[]; report: z.infer<typeof artifactRefSchema> };

/** The pre-evaluation probe's verdict (screening/probe/): the whole report is the artifact. `cached`: an earlier run's
 * verdict for the same key, reused. */
export type ProbeResult =
  | { verdict: 'pass'; report: z.infer<typeof artifactRefSchema>; conversations: number; cached?: boolean }
  | {
      verdict: 'reject';
      reasons: Rejection[];
      report: z.infer<typeof artifactRefSchema>;
      conversations: number;
      cached?: boolean;
    };

export interface ScenarioDescriptor {
  name: string;
  dir: string;
}

export interface PreparedScenario {
  name: string;
  dir: string;
  imageTag: string;
  /** Optional in task.toml (Harbor's default: none); shown as "—". */
  category?: string;
  difficulty?: string;
  agentTimeoutSec: number;
  agentMaxTurns: number;
  verifierTimeoutSec: number;
  cpus: number;
  memoryMb: number;
  /** Declared outputs; empty when the task declares none and the verifier starts from the agent's snapshot. */
  agentOutputs: string[];
  /** The agent's OS user ([agent] user, else the image's USER; never root) and working directory. */
  agentUser?: string;
  /** The image's USER ("" when unset: root): the oracle's solve.sh runs as it, as Harbor runs it (agents/oracle-agent.ts). */
  imageUser?: string;
  /** The task was written for Harbor's root agent (a public base image, no [agent] user, no non-root USER): the
   * working directory is handed to the agent's user before each run, so it can change what root could. */
  workdirToAgent?: boolean;
  workdir?: string;
  /** [environment] env (the containers), [agent] env, [solution] env, [verifier] env, as NAME=value. */
  containerEnv?: string[];
  agentEnv?: string[];
  solutionEnv?: string[];
  verifierEnv?: string[];
  /** [verifier] user; root when absent. */
  verifierUser?: string;
  /** [environment] storage_mb: lowers the agent's disk budget when below the worker's. */
  storageMb?: number;
  /** The task's test count (the scale of a reward): pytest's collection inside the scenario image, else read
   * statically. */
  testsDeclared?: number;
  /** How testsDeclared was counted (verifiers/collect-tests.ts). */
  testsCountedBy?: 'pytest' | 'static';
  /** What the validator does differently from what the task asks (allow_internet), for the result. */
  notes?: string[];
  /** sha256 of the scenario folder (catalog/scenario-content-hash.ts): a rerun reuses results only when it matches. */
  contentHash?: string;
}

export type AgentOutcome = 'completed' | 'agent_timeout' | 'agent_error';

export interface AgentRunResult {
  outcome: AgentOutcome;
  exitCode: number | null;
  wallMs: number;
  outputs: z.infer<typeof artifactRefSchema>;
  agentLog: z.infer<typeof artifactRefSchema>;
  /** The agent's own records (Hermes sessions and log), when it keeps any. */
  agentRecords?: z.infer<typeof artifactRefSchema>;
  /** Reasons outputs were trimmed (unsafe paths, size), recorded rather than silently dropped. */
  outputNotes: string[];
  /** A task without agent_outputs: the stopped agent container committed as this image, the verifier's start. */
  snapshotImage?: string;
  /** Present when the agent went through the policy: spend, faults and the records of the run. */
  policy?: {
    costUsd: number;
    costByModelUsd?: Record<string, number>;
    calls: number;
    agentRequests: number;
    budgetRefusals: number;
    /** Calls that failed upstream for the infrastructure's reasons after the gateway's retries; absent in older
     * results. */
    upstreamFailures?: number;
    /** Calls the policy left in flight (booked `abandoned`, charged): the policy's; absent in older results. */
    abandonedCalls?: number;
    /** How much of what the agent received came from model answers; absent in older results. */
    provenance?: ProvenanceSummary;
    /** The scenario's hidden content found in what the policy sent the models; absent in older results. */
    injection?: InjectionSummary;
    faults: { kind: string; requestId?: string; message: string }[];
    callLog: z.infer<typeof artifactRefSchema>;
    policyLog: z.infer<typeof artifactRefSchema>;
    turnLog?: z.infer<typeof artifactRefSchema>;
  };
}

export interface VerificationResult {
  testsPassed: number;
  testsFailed: number;
  testsTotal: number;
  source: 'ctrf' | 'reward';
  /** The reward the verifier wrote, when the counts are a share of the declared tests. */
  reward?: number;
  report: z.infer<typeof artifactRefSchema>;
  verifierLog: z.infer<typeof artifactRefSchema>;
  wallMs: number;
  /** How the score was read (zero tests collected, a placeholder report passed over). */
  notes?: string[];
}

/**
 * `ceiling_reached`: not run (or refused before paid work) because a spend ceiling was reached —
 * neither a policy failure nor scored; like `infra_error` it makes the evaluation incomplete.
 * `task_invalid`: the task itself does not load or its image does not build (the reason in `error`):
 * the task's failure, never the policy's; not scored, and the evaluation is incomplete.
 */
export const scenarioStatuses = [
  'completed',
  'agent_timeout',
  'policy_error',
  'budget_exhausted',
  'provenance_violation',
  'injected_scenario_content',
  'infra_error',
  'ceiling_reached',
  'task_invalid',
] as const;
export type ScenarioStatus = (typeof scenarioStatuses)[number];

export interface ScenarioResult {
  name: string;
  category?: string;
  difficulty?: string;
  status: ScenarioStatus;
  testsPassed: number;
  testsTotal: number;
  /** The task's own test count when known and the scenario was not scored (`task_invalid`). */
  testsDeclared?: number;
  costUsd: number;
  /** The scenario's cost by model. */
  costByModelUsd?: Record<string, number>;
  agentWallMs: number;
  verifierWallMs: number;
  error?: string;
  /**
   * The pack broke its own run before anything could be verified (contracts/failure-types.ts
   * packFaultTypes): scored 0 of the scenario's tests, whose count the pairing takes from the other side.
   */
  unverified?: boolean;
  /** How much of what the agent received came from model answers (below the threshold: `provenance_violation`, scored
   * 0). */
  provenance?: ProvenanceSummary;
  /** The scenario's hidden content found in what the policy sent the models (two pieces or more:
   * `injected_scenario_content`, scored 0). */
  injection?: InjectionSummary;
  /** What went wrong on the policy side (crash, hang, malformed answer, protocol abuse). */
  policyFaults?: { kind: string; requestId?: string; message: string }[];
  artifacts: Record<string, z.infer<typeof artifactRefSchema>>;
  /** The scenario folder's content hash when it ran (absent before it was recorded, or when it never got that far). */
  scenarioHash?: string;
  /** Reused from an earlier evaluation (its workflow id) by a rerun, not run again. */
  reusedFrom?: string;
  /** What the validator did differently from what the task asked, and how its score was read. */
  notes?: string[];
}

export type EvaluationStatus = 'completed' | 'incomplete' | 'rejected';

export interface EvaluationResult {
  submissionId: string;
  workflowId: string;
  status: EvaluationStatus;
  packHash?: string;
  scenarioSpec?: number | null;
  agent: string;
  testsPassed: number;
  testsTotal: number;
  costUsd: number;
  /** The evaluation's cost by model, summed over scenarios. */
  costByModelUsd?: Record<string, number>;
  /** sha256 of the price table the gateway charged by (spec name, cap, every model's prices;
   * gateway/catalog/price-table.ts). */
  priceTableHash?: string;
  /** Charged by the spec's frozen table and cap; false when an operator overrode prices (TRL_MODELS_FILE) or the cap.
   * */
  official?: boolean;
  /** sha256 of the spec manifest (contracts/spec-manifest.ts): equal hashes, the same contest. */
  manifestHash?: string;
  specManifest?: SpecManifest;
  /** Settled spend of every attempt of this submission in the spend ledger, retried attempts included. */
  ledgerCostUsd?: number;
  /** Why the evaluation stopped starting paid scenarios (a spend ceiling), when it did. */
  stoppedReason?: string;
  rejection?: Rejection[];
  perScenario: ScenarioResult[];
  resultFile?: z.infer<typeof artifactRefSchema>;
}
