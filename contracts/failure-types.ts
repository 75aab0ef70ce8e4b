// Every failure type that crosses the Temporal boundary, defined once. Activities raise them
// (activities/failures.ts classifies errors into them); workflows match on them and list the
// non-retryable ones in their retry policies. Workflow code imports this file: no Node built-ins.

/** Pack problems; the first five mean "the pack is bad" and end the evaluation as rejected. */
export const packFailureTypes = {
  notFound: 'pack_not_found',
  tooLarge: 'pack_too_large',
  hashMismatch: 'pack_hash_mismatch',
  invalid: 'pack_invalid',
  /** The URL (or a redirect) leads to a non-public address, or redirects too often: the miner's. */
  urlRefused: 'pack_url_refused',
  /** The download failed (network, server): retried, never a rejection. */
  fetchFailed: 'pack_fetch_failed',
} as const;
export type PackFailureType = (typeof packFailureTypes)[keyof typeof packFailureTypes];

export const packRejectionTypes: readonly string[] = [
  packFailureTypes.notFound,
  packFailureTypes.tooLarge,
  packFailureTypes.hashMismatch,
  packFailureTypes.invalid,
  packFailureTypes.urlRefused,
];

/** Infrastructure failures of the verifier: retried, then the scenario is `infra_error`. */
export const verifierFailureTypes = {
  timeout: 'verifier_timeout',
  crashed: 'verifier_crashed',
  reportInvalid: 'verifier_report_invalid',
} as const;
export type VerifierFailureType = (typeof verifierFailureTypes)[keyof typeof verifierFailureTypes];

export const failureTypes = {
  scenarioInvalid: 'scenario_invalid',
  imageBuildFailed: 'image_build_failed',
  artifactCorrupt: 'artifact_corrupt',
  /** A spend ceiling (per submission or per day) would be passed: no paid work starts. */
  spendCeilingReached: 'spend_ceiling_reached',
  /** `trl eval --tape`: the policy asked for a call the recording does not have; replaying again would diverge again.
   * */
  tapeDiverged: 'tape_diverged',
  /** The agent harness kept crashing (a fatal signal) before the policy saw any request: retried, then infra_error. */
  agentCrashed: 'agent_crashed',
  /** A seat activity ran on a worker started without a chain. */
  seatNotConfigured: 'seat_not_configured',
  /** claimSandboxHost on a host with no room for another scenario: tried again on the shared queue, where any host may
   * take it. */
  sandboxHostFull: 'sandbox_host_full',
  /** Recorded by the evaluation (the scenario's error starts with it): the scenario lost its sandbox host more often
   * than it may change hosts. */
  sandboxHostLost: 'sandbox_host_lost',
} as const;

/**
 * A scenario attempt that failed because of the pack itself — its sandbox, its outputs, its
 * payloads, its disk use — raised by an activity as a non-retryable failure of one of these types.
 * The scenario is the policy's failure: scored 0 with the reason, and the evaluation completes
 * (contracts/blame.ts). Never `infra_error`: a pack must not make its own evaluation incomplete.
 */
export const packFaultTypes = {
  /** The agent's outputs broke the archive limits (bytes, entries) or could not be collected safely. */
  outputsTooLarge: 'pack_outputs_too_large',
  /** What the pack made the run record (notes, faults, logs) could not fit an activity result. */
  payloadTooLarge: 'pack_payload_too_large',
  /** The pack's sandbox (policy or agent container) broke in a way only its own code can cause. */
  sandboxFault: 'pack_sandbox_fault',
  /** The scenario's disk budget was spent by what the pack or its agent wrote. */
  diskBudgetExceeded: 'pack_disk_budget_exceeded',
} as const;
export type PackFaultType = (typeof packFaultTypes)[keyof typeof packFaultTypes];
export const packFaultTypeList: readonly string[] = Object.values(packFaultTypes);

/** Recorded by the evaluation (the scenario's error starts with it) when calls failed upstream (infrastructure) and
 * changed the outcome. */
export const upstreamUnavailableType = 'upstream_unavailable';

/** Types an evaluation never retries: retrying cannot change the outcome. */
export const evaluationNonRetryableTypes: readonly string[] = [
  ...packRejectionTypes,
  ...packFaultTypeList,
  failureTypes.scenarioInvalid,
  failureTypes.artifactCorrupt,
  failureTypes.spendCeilingReached,
  failureTypes.tapeDiverged,
];

/** Chain failures are `chain_<kind>`; the kinds are chain/chain-error.ts's. */
export const chainErrorKinds = ['preflight', 'dispatch', 'invalid_transaction', 'connection', 'bad_data'] as const;
export type ChainErrorKind = (typeof chainErrorKinds)[number];

export function chainFailureType(kind: ChainErrorKind): string {
  return `chain_${kind}`;
}

/** Chain kinds a retry cannot help: our own preflight, a runtime refusal, data we cannot parse. */
export const chainNonRetryableTypes: readonly string[] = [
  chainFailureType('preflight'),
  chainFailureType('dispatch'),
  chainFailureType('bad_data'),
  failureTypes.seatNotConfigured,
];

/** What each failure type means, as docs/reference/failure-types.md shows it (`trl docs` fails on a type without one).
 * */
export const failureTypeMeanings: Readonly<Record<string, string>> = {
  [packFailureTypes.notFound]: 'The pack is not where the submission says (no directory, file or stored hash).',
  [packFailureTypes.tooLarge]:
    'The pack breaks a size limit: its bytes (also while downloading), its file count, or its bundle.',
  [packFailureTypes.hashMismatch]: 'The downloaded bytes do not hash to the committed sha256.',
  [packFailureTypes.invalid]: 'The pack breaks the format: schema, file names, kind, or a pre-evaluation rule.',
  [packFailureTypes.urlRefused]:
    "The URL (or a redirect) leads to a non-public address, or redirects too often: the miner's.",
  [packFailureTypes.fetchFailed]: 'The download failed (network, server): retried, never a rejection.',
  [verifierFailureTypes.timeout]: 'The verifier ran past its timeout.',
  [verifierFailureTypes.crashed]: 'The verifier container failed without a report.',
  [verifierFailureTypes.reportInvalid]: "The verifier's report (CTRF or reward file) could not be read.",
  [failureTypes.scenarioInvalid]: 'The scenario folder breaks the Harbor layout or its task.toml.',
  [failureTypes.imageBuildFailed]: "The scenario's image did not build.",
  [failureTypes.artifactCorrupt]: 'A stored artifact does not match its hash.',
  [failureTypes.spendCeilingReached]:
    'A spend ceiling (per submission or per day) would be passed: no paid work starts.',
  [failureTypes.tapeDiverged]:
    '`trl eval --tape`: the policy asked for a call the recording does not have; replaying again would diverge again.',
  [failureTypes.agentCrashed]:
    'The agent harness kept crashing (a fatal signal) before the policy saw any request: retried, then infra_error.',
  [failureTypes.seatNotConfigured]: 'A seat activity ran on a worker started without a chain.',
  [failureTypes.sandboxHostFull]:
    'A sandbox host had no room for another scenario: the claim is tried again on the shared queue.',
  [failureTypes.sandboxHostLost]: 'The scenario lost its sandbox host more often than it may change hosts.',
  [packFaultTypes.outputsTooLarge]:
    "The agent's outputs broke the archive limits (bytes, entries) or could not be collected safely.",
  [packFaultTypes.payloadTooLarge]: 'What the pack made the run record could not fit an activity result.',
  [packFaultTypes.sandboxFault]:
    "The pack's sandbox (policy or agent container) broke in a way only its own code can cause.",
  [packFaultTypes.diskBudgetExceeded]: "The scenario's disk budget was spent by what the pack or its agent wrote.",
  [upstreamUnavailableType]: "Model calls failed upstream (the infrastructure's) and changed the outcome.",
  [chainFailureType('preflight')]:
    'Our own checks refused the call before sending it (not registered, rate limited, …).',
  [chainFailureType('dispatch')]: 'The chain runtime refused the extrinsic (decoded by name).',
  [chainFailureType('invalid_transaction')]: 'The transaction pool refused it (1010 and friends): retried.',
  [chainFailureType('connection')]: 'The node did not answer: retried.',
  [chainFailureType('bad_data')]: 'The chain returned data we cannot parse.',
};
