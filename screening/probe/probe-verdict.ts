// The probe's verdict, from what each scenario's conversation showed. Two behaviours reject a pack:
// - `authored_output`: the agent received content no model produced (provenance below the threshold);
// - `injected_scenario_content`: the policy sent the models scenario-specific content (test names,
//   asserted strings, expected values, solution lines, fixture values of any scenario) that was not
//   in the conversation it was given — knowledge it can only have carried in.
// Pure; the evidence is bounded.
import { isProvenanceViolation, type ProvenanceSummary } from '../../contracts/provenance.ts';
import type { Rejection } from '../../contracts/results.ts';

export const probeRejectionCodes = {
  authoredOutput: 'authored_output',
  injectedScenarioContent: 'injected_scenario_content',
} as const;

/** Scenario content a policy cannot have seen in the conversation; instruction phrases are given to it. */
export const injectedKinds: readonly string[] = [
  'test-name',
  'test-string',
  'expected-value',
  'solution-line',
  'fixture-value',
];

/** Distinct injected fingerprints needed to reject: one could be a coincidence of wording. */
export const minInjectedFingerprints = 2;

export interface ScenarioProbe {
  scenario: string;
  turns: number;
  provenance: ProvenanceSummary;
  /** Scenario fingerprints found in what the policy sent upstream and absent from what it was given. */
  injected: { scenario: string; kind: string; display: string; field?: string }[];
  /** Where the tool results came from: `image <id>`, or `build context: <why not the image>`. */
  environment?: string;
  error?: string;
}

export interface ProbeReport {
  verdict: 'pass' | 'reject';
  reasons: Rejection[];
  scenarios: ScenarioProbe[];
  /** Present when the verdict is an earlier run's, reused (screening/probe/probe-cache.ts): no conversation was played
   * now. */
  cached?: { probedAt: string; probedBy: string; keyHash: string };
}

export function probeVerdict(scenarios: ScenarioProbe[]): ProbeReport {
  const reasons: Rejection[] = [];
  const authored = scenarios.filter((probe) => isProvenanceViolation(probe.provenance));
  if (authored.length > 0) {
    const first = authored[0]!;
    reasons.push({
      code: probeRejectionCodes.authoredOutput,
      message: `the policy answered the agent with content no model produced in ${authored.length} of ${scenarios.length} probe conversations (${first.scenario}: ${(first.provenance.coverage * 100).toFixed(0)}% from model answers${first.provenance.uncovered[0] ? `, e.g. "${first.provenance.uncovered[0]}"` : ''}); a policy may select, combine and trim model output, not write it`,
    });
  }
  const injected = new Map<string, ScenarioProbe['injected'][number] & { during: string }>();
  for (const probe of scenarios)
    for (const hit of probe.injected)
      if (!injected.has(hit.display)) injected.set(hit.display, { ...hit, during: probe.scenario });
  if (injected.size >= minInjectedFingerprints) {
    const examples = [...injected.values()]
      .slice(0, 3)
      .map(
        (hit) =>
          `"${hit.display}" (${hit.kind} of ${hit.scenario}, sent during ${hit.during}${hit.field ? ` in ${hit.field}` : ''})`,
      );
    reasons.push({
      code: probeRejectionCodes.injectedScenarioContent,
      message: `the policy sent the models ${injected.size} pieces of scenario content it was never given, e.g. ${examples.join('; ')}`,
    });
  }
  return { verdict: reasons.length ? 'reject' : 'pass', reasons, scenarios };
}
