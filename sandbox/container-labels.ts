// Labels put on every container the project creates, so orphans can be found and removed.
export const containerLabels = {
  managed: 'trl.managed',
  workerId: 'trl.worker-id',
  workerPid: 'trl.worker-pid',
  workerHost: 'trl.worker-host',
  role: 'trl.role',
  scenario: 'trl.scenario',
  workflowId: 'trl.workflow-id',
} as const;
