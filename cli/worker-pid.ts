import { readFileSync } from 'node:fs';
import { processAlive } from '../common/process-alive.ts';

/** The pid in a worker's pid file if that process is alive, else undefined. */
export function liveWorkerPid(pidFile: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return undefined;
  }
  return processAlive(pid) ? pid : undefined;
}
