// The on-disk layout of a run's artifacts. Every path an activity writes comes from here.
import path from 'node:path';
import { artifactsRoot } from '../common/paths.ts';

function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 160);
}

export function runDir(workflowId: string): string {
  return path.join(artifactsRoot, safeSegment(workflowId));
}

/** One folder per scenario attempt: retried attempts keep their own records. */
export function scenarioAttemptDir(workflowId: string, scenario: string, phase: 'agent' | 'verifier', attempt: number): string {
  return path.join(runDir(workflowId), 'scenarios', safeSegment(scenario), `${phase}-attempt-${attempt}`);
}

export const artifactNames = {
  agentOutputs: 'agent-outputs.tar',
  agentLog: 'agent.log',
  ctrfReport: 'ctrf.json',
  verifierLog: 'verifier.log',
  evaluationResult: 'result.json',
} as const;

export function evaluationResultFile(workflowId: string): string {
  return path.join(runDir(workflowId), artifactNames.evaluationResult);
}
