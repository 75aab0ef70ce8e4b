// What the claim activity (activities/sandbox-host-activities.ts) beats while a scenario waits for a
// sandbox host: the scenario and the host's reason. `trl seat` (cli/host-waits.ts) and the Temporal
// UI's pending activities read it.
export interface ClaimWaitDetails {
  scenario: string;
  waiting: string;
}
