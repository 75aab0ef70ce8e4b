// Stops a whole process group: the signal first, then SIGKILL for whatever is still in the group
// after the grace period. A process that handles TERM itself (a Temporal worker shuts down
// gracefully, waiting for its running activities) would otherwise outlive whoever stopped it.
// Resolves once the group is empty.

/** Whether any process of the group still runs (signal 0 to the group). */
export function processGroupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // The group is gone already: nothing left to stop.
  }
}

export async function stopProcessGroup(
  groupId: number,
  options: { signal: NodeJS.Signals; graceMs: number; pollMs?: number },
): Promise<void> {
  const pollMs = options.pollMs ?? 100;
  signalGroup(groupId, options.signal);
  const deadline = Date.now() + options.graceMs;
  while (processGroupAlive(groupId) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  if (!processGroupAlive(groupId)) return;
  signalGroup(groupId, 'SIGKILL');
  while (processGroupAlive(groupId)) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
