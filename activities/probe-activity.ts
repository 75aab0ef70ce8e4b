// probePolicy: the pre-evaluation probe, at $0. The pack's policy runs in its real sandbox against
// each scenario's opening conversation (policy/probe/), with a bland upstream answering every call;
// the verdict rejects a policy that authors what the agent receives or carries scenario content in.
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { PackRef, ProbeResult, ScenarioDescriptor } from '../contracts/results.ts';
import { probeLimits } from '../contracts/probe.ts';
import { artifactNames, probeScenarioDir, runDir } from '../common/data-layout.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { hermesOpening } from '../agents/hermes-opening.ts';
import { createBlandUpstream } from '../policy/probe/bland-upstream.ts';
import { playConversation } from '../policy/probe/probe-conversation.ts';
import { environmentHeads } from '../policy/probe/environment-heads.ts';
import { injectedContent } from '../policy/probe/injected-content.ts';
import { probeVerdict, type ProbeReport, type ScenarioProbe } from '../policy/probe/probe-verdict.ts';
import { workflowIdOf, type ActivityDependencies } from './activity-context.ts';
import { startPolicyForSource, type PolicySource } from './agent-environment.ts';
import { policyOf } from './pack-policy.ts';
import { mergedScenarioFingerprints } from './fingerprint-cache.ts';
import { boundRejections } from './payload-bounds.ts';

const probeConversationMs = probeLimits.conversationSec * 1000;

/**
 * The probe's conversations, one per scenario, each with a fresh policy instance and a fresh bland
 * upstream; the verdict with its report. The activity and bench/probe-corpus.ts both run this.
 */
export async function runProbe(
  deps: ActivityDependencies,
  input: { policy: PolicySource; scenarios: readonly ScenarioDescriptor[]; workflowId: string; attempt: number; signal: AbortSignal },
): Promise<ProbeReport> {
  const fingerprints = await mergedScenarioFingerprints(input.scenarios.map((s) => path.dirname(s.dir)));
  const opening = hermesOpening();
  const probes: ScenarioProbe[] = [];
  for (const descriptor of input.scenarios) {
    if (input.signal.aborted) break;
    const folder = await loadScenario(descriptor.dir);
    const scenario = { name: descriptor.name, instruction: folder.instruction, environmentFiles: await environmentHeads(descriptor.dir) };
    const bland = createBlandUpstream();
    const deadlineMs = performance.now() + probeConversationMs;
    const signal = AbortSignal.any([input.signal, AbortSignal.timeout(probeConversationMs)]);
    const run = await startPolicyForSource(deps, {
      policy: input.policy, workflowId: input.workflowId, scenario: descriptor.name, seed: 0, dir: probeScenarioDir(input.workflowId, descriptor.name, input.attempt),
      bindHost: '127.0.0.1', deadlineMs, maxAgentRequests: probeLimits.turns + 2, signal, upstream: bland.client,
    });
    let conversation: Awaited<ReturnType<typeof playConversation>> = { turns: 0, sentText: '' };
    try {
      const startFailure = run.host.startFailure;
      if (startFailure) conversation = { turns: 0, sentText: '', error: `the policy did not start: ${startFailure.message}` };
      else conversation = await playConversation(run.endpoint.url, scenario, opening, { maxTurns: probeLimits.turns, requestTimeoutMs: probeConversationMs, signal });
    } finally {
      const summary = await run.stop();
      probes.push({
        scenario: descriptor.name,
        turns: conversation.turns,
        provenance: summary.provenance,
        injected: injectedContent(fingerprints, bland.sent().text, conversation.sentText),
        ...(conversation.error ? { error: conversation.error } : {}),
      });
    }
  }
  return probeVerdict(probes);
}

export function createProbeActivity(deps: ActivityDependencies) {
  async function probePolicy(request: { pack: PackRef; scenarios: ScenarioDescriptor[] }): Promise<ProbeResult> {
    const context = Context.current();
    const workflowId = workflowIdOf(context.info);
    const { policy } = await policyOf(request.pack);
    const beat = setInterval(() => context.heartbeat(), 5_000);
    let report: ProbeReport;
    try {
      report = await runProbe(deps, { policy, scenarios: request.scenarios, workflowId, attempt: context.info.attempt, signal: context.cancellationSignal });
    } finally {
      clearInterval(beat);
    }
    const reportRef = await writeArtifact(path.join(runDir(workflowId), artifactNames.probeReport), JSON.stringify(report, null, 2) + '\n');
    return report.verdict === 'pass'
      ? { verdict: 'pass', report: reportRef, conversations: report.scenarios.length }
      : { verdict: 'reject', reasons: boundRejections(report.reasons), report: reportRef, conversations: report.scenarios.length };
  }
  return { probePolicy };
}
