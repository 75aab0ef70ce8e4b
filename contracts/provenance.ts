// Provenance of what the agent received: a policy may select, truncate, combine and reorder model
// output, but not author it. The gateway fingerprints every model answer; each answer the agent
// receives is measured against them (gateway/provenance/). Workflow code imports this file.

/** Below this share of the agent's received content found in model answers, the scenario is a `provenance_violation`.
 * */
export const provenanceCoverageThreshold = 0.8;

/** Received content too small to judge: a few words cannot show authorship either way. */
export const provenanceMinimumUnits = 20;

export interface ProvenanceSummary {
  /** Covered units over all units (1 when the agent received nothing to check). */
  coverage: number;
  /** Units of received content: words of text, and each tool call as the words of its arguments. */
  units: number;
  coveredUnits: number;
  /** Agent turns whose answers were checked. */
  turns: number;
  /** A few of the received passages no model answer holds (bounded). */
  uncovered: string[];
}

/** Whether a run's provenance makes the scenario a violation. */
export function isProvenanceViolation(summary: ProvenanceSummary | undefined): boolean {
  return (
    summary !== undefined && summary.units >= provenanceMinimumUnits && summary.coverage < provenanceCoverageThreshold
  );
}
