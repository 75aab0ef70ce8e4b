// Everything one scenario run needs on the policy side, started together and stopped together:
// gateway (budget, call log) → policy sandbox + host → agent endpoint. Stopping writes the records.
import path from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import type Docker from 'dockerode';
import type OpenAI from 'openai';
import type { Allowlist } from '../../gateway/catalog/allowlist.ts';
import type { ArtifactRef } from '../../contracts/artifact.ts';
import type { WorkerIdentity } from '../../sandbox/worker-identity.ts';
import { ModelGateway } from '../../gateway/model-gateway.ts';
import { CallLog } from '../../gateway/call-log.ts';
import { describeArtifact, writeArtifact } from '../../common/write-artifact.ts';
import { artifactNames } from '../../common/data-layout.ts';
import { PolicyHost, type PolicyFault } from './policy-host.ts';
import { serveAgentEndpoint, type AgentEndpoint } from './agent-endpoint.ts';
import { TurnLog } from './turn-log.ts';

export interface PolicyRunOptions {
  docker: Docker;
  owner: WorkerIdentity;
  workflowId: string;
  scenario: string;
  policyImage: string;
  bundleCode: string;
  allowlist: Allowlist;
  upstream: OpenAI;
  capUsd: number;
  seed: number;
  /** Folder of this attempt's records. */
  dir: string;
  /** Address the agent endpoint binds: loopback, or the bridge address of the run's network. */
  bindHost: string;
  requestTimeoutMs: number;
  /** The agent's deadline (performance.now() clock): no policy request waits past it. */
  deadlineMs?: number;
  /** Most model requests the agent may make (its turn limit), enforced here, outside the agent. */
  maxAgentRequests?: number;
}

export interface PolicyRunSummary {
  costUsd: number;
  calls: number;
  budgetRefusals: number;
  agentRequests: number;
  faults: PolicyFault[];
  callLog: ArtifactRef;
  policyLog: ArtifactRef;
  turnLog: ArtifactRef;
}

export interface PolicyRun {
  endpoint: AgentEndpoint;
  host: PolicyHost;
  gateway: ModelGateway;
  stop(): Promise<PolicyRunSummary>;
}

/** The policy's records inside a scenario attempt's folder (names owned by common/data-layout.ts). */
export const policyRecordNames = { callLog: artifactNames.callLog, policyLog: artifactNames.policyLog, turnLog: artifactNames.turnLog, bundleDir: artifactNames.policyBundleDir } as const;

export async function startPolicyRun(options: PolicyRunOptions): Promise<PolicyRun> {
  const bundleDir = path.join(options.dir, policyRecordNames.bundleDir);
  await mkdir(bundleDir, { recursive: true });
  const bundleFile = path.join(bundleDir, 'policy.mjs');
  await writeFile(bundleFile, options.bundleCode, { mode: 0o644 });
  const callLogFile = path.join(options.dir, policyRecordNames.callLog);
  const callLog = new CallLog(callLogFile);
  const turnLogFile = path.join(options.dir, policyRecordNames.turnLog);
  const turnLog = new TurnLog(turnLogFile);
  const gateway = new ModelGateway({ allowlist: options.allowlist, upstream: options.upstream, capUsd: options.capUsd, callLog, seed: options.seed });
  const host = await PolicyHost.start(
    options.docker,
    { image: options.policyImage, bundleFile, owner: options.owner, workflowId: options.workflowId, scenario: options.scenario },
    gateway,
    { requestTimeoutMs: options.requestTimeoutMs, deadlineMs: options.deadlineMs, maxAgentRequests: options.maxAgentRequests, turnLog },
  );
  let endpoint: AgentEndpoint;
  try {
    endpoint = await serveAgentEndpoint(host, { host: options.bindHost });
  } catch (error) {
    await host.stop();
    throw error;
  }
  return {
    endpoint,
    host,
    gateway,
    async stop() {
      await endpoint.close();
      await host.stop();
      await callLog.close();
      await turnLog.close();
      return {
        costUsd: gateway.ledger.spentUsd,
        calls: callLog.entries.length,
        budgetRefusals: gateway.budgetRefusals,
        agentRequests: endpoint.requests,
        faults: [...host.faults],
        callLog: await describeArtifact(callLogFile),
        policyLog: await writeArtifact(path.join(options.dir, policyRecordNames.policyLog), host.logLines.join('\n') + '\n'),
        turnLog: await describeArtifact(turnLogFile),
      };
    },
  };
}
