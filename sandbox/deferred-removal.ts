// Removing a sandbox's container or network fails while the engine is away (dockerd restarting,
// its socket gone): the object must not stay behind for good. Such a removal is tried again in the
// background every few seconds until the engine answers (404 counts as gone), for a bounded time;
// a worker that dies meanwhile leaves it to the next worker's orphan sweep.
import { log } from '../common/log.ts';

const retryEveryMs = 5_000;
const giveUpAfterMs = 15 * 60_000;
const pending = new Set<string>();

/** The engine did not answer (no socket, refused, reset) or failed as a whole (5xx). */
export function engineUnavailable(error: unknown): boolean {
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  if (typeof statusCode === 'number') return statusCode >= 500;
  return ['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code ?? '');
}

/** Runs remove now; if the engine is away, again later in the background. Other errors are thrown. */
export async function removeNowOrLater(
  what: string,
  remove: () => Promise<void>,
  everyMs = retryEveryMs,
): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (!engineUnavailable(error)) throw error;
    retryLater(what, remove, Date.now() + giveUpAfterMs, everyMs);
  }
}

function retryLater(what: string, remove: () => Promise<void>, giveUpAt: number, everyMs: number): void {
  if (pending.has(what)) return;
  pending.add(what);
  log.warn('sandbox_removal_deferred', { what });
  const attempt = () => {
    remove().then(
      () => {
        pending.delete(what);
        log.info('sandbox_removal_done', { what });
      },
      (error: unknown) => {
        if (engineUnavailable(error) && Date.now() < giveUpAt) return void setTimeout(attempt, everyMs).unref();
        pending.delete(what);
        log.warn('sandbox_removal_failed', { what, error: (error as Error).message });
      },
    );
  };
  setTimeout(attempt, everyMs).unref();
}

/** Removals still waiting for the engine (for tests and diagnostics). */
export function pendingRemovals(): string[] {
  return [...pending];
}
