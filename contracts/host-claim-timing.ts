// The timings of a scenario's claim on a sandbox host (docs/explanation/roles-and-queues.md). They work only
// together, on two sides of Temporal: the workflow retries a refused claim (workflows/sandbox-host.ts), the host
// keeps the claim next in line asking and orders its waiters (activities/sandbox-host-activities.ts,
// host-claims.ts). Tuned on two-host epochs (docs/figures/epoch.md): 1.75× with a 1–5 s back-off, 20 s asking and
// 12 s staleness; 1.83× with these.
export const hostClaimTiming = {
  /** A refused claim is sent again this long later, every time: a claim that backed off to 5 s left a freed room
   * idle for seconds, and a waiter keeps its place in a host's order only while it comes back. */
  retryMs: 1_000,
  /** How long the claim next in line waits for room before it goes back to the shared queue for any host. Short:
   * while it asks a full host, another host with room cannot see it (at 20 s, two hosts lost 54 s of a 480 s epoch
   * at the tail); with `retryMs` a lone host still has it asking four seconds in five. */
  roomWaitMs: 4_000,
  /** A waiter not back after this has gone to another host (or was given up) and no longer holds this host's order.
   * A passed-over claim is back `retryMs` later, a little more when the claim queue is busy (at 12 s, claims another
   * host had taken held a host's room back at the tail of two-host epochs). */
  waitingStaleMs: 5_000,
  /** Claims arriving within this window are ordered among themselves (an evaluation's start sends all of its
   * claims). */
  settleMs: 1_000,
} as const;
