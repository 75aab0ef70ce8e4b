// Measures a container's writable layer every few seconds and reports once when it passes its
// budget; the caller stops the agent. Cheap: one `inspect --size` per interval, never overlapping.
import type Docker from 'dockerode';
import { writableLayerBytes } from './container-limits.ts';

export interface DiskWatchdog {
  /** Set once the budget was passed: the bytes measured then. */
  readonly breachBytes: number | undefined;
  stop(): void;
}

export function watchDisk(
  container: Docker.Container,
  budgetBytes: number,
  onBreach: (bytes: number) => void,
  intervalMs = 2_000,
): DiskWatchdog {
  let breachBytes: number | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async (): Promise<void> => {
    const bytes = await writableLayerBytes(container).catch(() => undefined);
    if (stopped) return;
    if (bytes !== undefined && bytes > budgetBytes) {
      breachBytes = bytes;
      stopped = true;
      onBreach(bytes);
      return;
    }
    timer = setTimeout(() => void check(), intervalMs);
  };
  timer = setTimeout(() => void check(), intervalMs);
  return {
    get breachBytes() {
      return breachBytes;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
