// A task run every `intervalMs` that never overlaps itself: a tick while the last run is still going is
// skipped (a slow Docker engine must not pile up samples). Failures are the task's to handle; one
// that escapes is dropped. The timer does not hold the process open.
export function repeatWithoutOverlap(task: () => Promise<void>, intervalMs: number): { stop(): void } {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    task()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
