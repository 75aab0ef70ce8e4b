// Limits of the pre-evaluation probe (screening/probe/, activities/probe-activity.ts), shared with the
// workflow that sizes the activity's timeout from them. Workflow code imports this file.
export const probeLimits = {
  /**
   * Requests per conversation: the opening and seven rounds of tool results (a policy that waits a
   * few turns before it changes its behaviour is seen changing it; the run-time check covers the rest).
   */
  turns: 8,
  /** One conversation's wall-clock limit, the policy's start included. */
  conversationSec: 90,
} as const;
