// Limits of the pre-evaluation probe (screening/probe/, activities/probe-activity.ts), shared with the
// workflow that sizes the activity's timeout from them. Workflow code imports this file.
export const probeLimits = {
  /** Requests per conversation: the opening and two rounds of tool results. */
  turns: 3,
  /** One conversation's wall-clock limit, the policy's start included. */
  conversationSec: 90,
} as const;
