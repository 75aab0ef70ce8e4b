// The progress query: what the command line's progress bar and an operator's query read.
import { defineQuery } from '@temporalio/workflow';

export type ScenarioPhase = 'queued' | 'building' | 'agent' | 'verifying' | 'done';

export interface EvaluationProgress {
  stage: 'fetching' | 'pre-eval' | 'probe' | 'scenarios' | 'aggregating' | 'done';
  packHash?: string;
  scenarios: { name: string; phase: ScenarioPhase; status?: string; testsPassed?: number; testsTotal?: number }[];
}

export const progressQuery = defineQuery<EvaluationProgress>('progress');
