// Content integrity of what a policy sends the models (DESIGN invariant 10): no request may carry
// the scenario's hidden content (test names and strings, expected values, solution lines, fixture
// values) that the agent never sent the policy and no model produced. The gateway checks every call
// (gateway/injection/); past the threshold the scenario is `injected_scenario_content`, scored 0.
// Workflow code imports this file: no Node built-ins.

/** The scenario status, the gateway's error type and the probe's rejection code: one name. */
export const injectedScenarioContent = 'injected_scenario_content';

/**
 * Distinct pieces of hidden content, carried in over the episode, that end it. One could be a
 * coincidence of wording (a policy prompt that happens to name a common command); two are not seen
 * in any honest run (calibrated on the example packs, the honest fixture packs and recorded Hermes runs).
 */
export const minInjectedPieces = 2;

/** Evidence kept per episode: the first pieces found, each with its call and field. */
export const maxInjectionEvidence = 8;

export interface InjectionEvidence {
  /** The gateway's call id of the request that carried it. */
  callId: string;
  /** Where in the request body: `messages[0].content`, `tools[2].function.description`, `response_format…`. */
  field: string;
  /** The fingerprint's kind (test-name, test-string, expected-value, solution-line, fixture-value). */
  kind: string;
  scenario: string;
  /** The piece's original wording (at most 120 characters). */
  display: string;
}

export interface InjectionSummary {
  /** Policy calls checked (every call that reached the gateway's checks). */
  checkedCalls: number;
  /** Hidden pieces of the scenario the calls were checked against. */
  hiddenPieces: number;
  /** Distinct hidden pieces found in policy calls that neither the agent nor a model had sent before. */
  injectedPieces: number;
  evidence: InjectionEvidence[];
}

export function isInjectionViolation(summary: InjectionSummary | undefined): boolean {
  return summary !== undefined && summary.injectedPieces >= minInjectedPieces;
}

/** One line for the scenario's error: how many pieces, and the first with its call and field. */
export function describeInjection(summary: InjectionSummary): string {
  const first = summary.evidence[0];
  const example = first ? `; first: ${first.kind} "${first.display}" in ${first.field} of call ${first.callId}` : '';
  return `the policy sent the models ${summary.injectedPieces} pieces of the scenario's hidden content that neither the agent nor a model had given it (at least ${minInjectedPieces} end the scenario)${example}`;
}
