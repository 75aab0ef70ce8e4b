// Provenance of what the agent received: a policy may select, truncate, combine and reorder model
// output, but not author it. The gateway fingerprints every model answer; each answer the agent
// receives is measured against them (gateway/provenance/). Two measures, reported apart:
// - actions: every tool call the agent receives must be covered by a model's output in the same
//   episode — a model's tool call with the same name and canonical arguments, or a model's text
//   that holds its name and every argument value. One action no model produced is authoring: a
//   violation whatever the words say (issue 36: a policy that wrote every tool call itself behind
//   a cheap model's repeated text kept word coverage at 0.93–0.97);
// - words: the prose the agent receives, by runs of words, at least 80% covered.
// Workflow code imports this file.

/** Below this share of the agent's received content found in model answers, the scenario is a `provenance_violation`.
 * */
export const provenanceCoverageThreshold = 0.8;

/** Received content too small to judge: a few words cannot show authorship either way. */
export const provenanceMinimumUnits = 20;

export interface ProvenanceSummary {
  /** Word coverage: covered words of received text over all its words (1 when the agent received no text). */
  coverage: number;
  /** Words of received text. */
  units: number;
  coveredUnits: number;
  /** Action coverage: received tool calls a model produced, over all received tool calls (1 when none); absent in
   * older results. */
  actionCoverage?: number;
  /** Tool calls the agent received. */
  actions?: number;
  coveredActions?: number;
  /** Agent turns whose answers were checked. */
  turns: number;
  /** A few of the received passages no model answer holds (bounded). */
  uncovered: string[];
}

/** Tool calls the agent received that no model produced. */
export function authoredActions(summary: ProvenanceSummary): number {
  return (summary.actions ?? 0) - (summary.coveredActions ?? 0);
}

/** Whether a run's provenance makes the scenario a violation: one authored action, or too little covered prose. */
export function isProvenanceViolation(summary: ProvenanceSummary | undefined): boolean {
  if (summary === undefined) return false;
  if (authoredActions(summary) > 0) return true;
  return summary.units >= provenanceMinimumUnits && summary.coverage < provenanceCoverageThreshold;
}

/** Why a run is a violation, with an example of what no model produced. */
export function provenanceViolationReason(summary: ProvenanceSummary): string {
  const example = summary.uncovered[0] ? `; for example: "${summary.uncovered[0]}"` : '';
  const authored = authoredActions(summary);
  if (authored > 0)
    return (
      `${authored} of the ${summary.actions} tool calls the agent received came from no model's output ` +
      `(every action must; word coverage ${(summary.coverage * 100).toFixed(1)}%)${example}`
    );
  return (
    `only ${(summary.coverage * 100).toFixed(1)}% of the text the agent received came from model answers ` +
    `(at least ${provenanceCoverageThreshold * 100}% must)${example}`
  );
}
