// Everything an agent attempt runs in, started in order and torn down in reverse, whatever fails:
// the run network (Hermes), the policy run (gateway + sandboxed policy + endpoint), the scenario
// container, and the agent wired to them.
import { isPolicyDriven, needsRunNetwork, type AgentName } from '../contracts/agent-kinds.ts';
import type { PreparedScenario } from '../contracts/results.ts';
import { ContainerSession } from '../sandbox/container-session.ts';
import { createRunNetwork, type RunNetwork } from '../sandbox/run-network.ts';
import { startPolicyRun, type PolicyRun, type PolicyRunSummary } from '../policy/host/policy-run.ts';
import { createAgent } from '../agents/agent-registry.ts';
import type { ScenarioAgent } from '../agents/scenario-agent.ts';
import type { ActivityDependencies } from './activity-context.ts';
import { packFiles } from '../sandbox/tar-archive.ts';
import { skillFile } from '../packs/pack-format.ts';

/** Where the pack's SKILL.md is placed in the scenario container (the live format's place). */
export const skillFolder = '/workspace';

export interface AgentEnvironment {
  session: ContainerSession;
  agent: ScenarioAgent;
  network?: RunNetwork;
  policyRun?: PolicyRun;
  /** Stops the policy run (returning its summary) and removes the container and network. */
  close(): Promise<PolicyRunSummary | undefined>;
}

/** Requests beyond the turn limit that an agent may still make (retries, auxiliary calls). */
const turnLimitSlack = 10;

export async function startAgentEnvironment(
  deps: ActivityDependencies,
  request: { scenario: PreparedScenario; agent: AgentName; bundleCode?: string; skill?: string; seed: number; workflowId: string; dir: string; deadlineMs: number },
): Promise<AgentEnvironment> {
  const { scenario } = request;
  // Container and network removal, run in reverse order; the policy run is stopped separately
  // because its summary (spend, faults, records) is the attempt's money trail.
  const cleanups: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    cleanups.length = 0;
  };
  let policyRun: PolicyRun | undefined;
  try {
    const needsPolicy = isPolicyDriven(request.agent);
    // Hermes runs inside the container and must reach the policy over a network of its own;
    // the loop agent runs in the worker and needs none.
    const network = needsRunNetwork(request.agent) ? await createRunNetwork(deps.docker, deps.owner, request.workflowId) : undefined;
    if (network) cleanups.push(() => network.remove());
    if (needsPolicy) {
      if (!request.bundleCode) throw new Error('a policy-driven agent needs the pack bundle');
      policyRun = await startPolicyRun({
        docker: deps.docker,
        owner: deps.owner,
        workflowId: request.workflowId,
        scenario: scenario.name,
        policyImage: deps.policyImage,
        bundleCode: request.bundleCode,
        allowlist: deps.allowlist,
        upstream: deps.upstream,
        capUsd: deps.budgetCapUsd,
        seed: request.seed,
        dir: request.dir,
        bindHost: network?.hostAddress ?? '127.0.0.1',
        requestTimeoutMs: deps.policyRequestTimeoutMs,
        deadlineMs: request.deadlineMs,
        maxAgentRequests: scenario.agentMaxTurns + turnLimitSlack,
      });
      if (network) await network.allowOnlyPort(policyRun.endpoint.port);
    }
    const session = await ContainerSession.start(deps.docker, {
      image: scenario.imageTag,
      role: 'agent',
      scenario: scenario.name,
      workflowId: request.workflowId,
      cpus: scenario.cpus,
      memoryMb: scenario.memoryMb,
      owner: deps.owner,
      networkMode: network?.name ?? 'none',
    });
    cleanups.push(() => session.remove());
    // The pack's SKILL.md, read-only for the agent (root-owned, 0444, in a root-owned folder).
    if (request.skill !== undefined) await session.upload(await packFiles([{ name: `${skillFolder.slice(1)}/${skillFile}`, content: Buffer.from(request.skill, 'utf8'), mode: 0o444 }]), '/');
    const agent = createAgent(request.agent, { policyEndpointUrl: policyRun?.endpoint.url, maxTurns: scenario.agentMaxTurns });
    let closing: Promise<PolicyRunSummary | undefined> | undefined;
    const run = policyRun;
    return {
      session,
      agent,
      network,
      policyRun,
      close() {
        closing ??= (async () => {
          try {
            return await run?.stop();
          } finally {
            await closeAll();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await policyRun?.stop().catch(() => undefined);
    await closeAll();
    throw error;
  }
}
