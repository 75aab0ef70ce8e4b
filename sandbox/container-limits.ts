// Limits for the containers the validator creates. CPU, memory (no swap) and processes: one
// SandboxLimits shape for every kind of sandbox, each kind with its defaults. Disk: container logs
// bounded by the json-file driver's rotation, the writable layer capped by the storage driver where
// it can (overlay2 needs xfs with pquota; on ext4 Docker refuses `StorageOpt size`), and otherwise
// measured while the agent runs (`disk-watchdog.ts`), so a breach stops the agent instead of
// filling the host.
import type Docker from 'dockerode';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

/** CPU, memory and process limits of one sandbox container; what is unset takes its kind's default. */
export interface SandboxLimits {
  memoryMb?: number;
  cpus?: number;
  pidsLimit?: number;
}

/** Docker HostConfig fields for a kind's default limits, each overridden where `limits` sets it; memory with no swap
 * beyond it. */
export function limitsHostConfig(defaults: Required<SandboxLimits>, limits?: SandboxLimits) {
  const memoryBytes = (limits?.memoryMb ?? defaults.memoryMb) * 1024 * 1024;
  return {
    Memory: memoryBytes,
    MemorySwap: memoryBytes,
    PidsLimit: limits?.pidsLimit ?? defaults.pidsLimit,
    NanoCpus: Math.round((limits?.cpus ?? defaults.cpus) * 1e9),
  };
}

/** Every container the project creates logs through this: at most 2 × 1 MiB kept per container. */
export const containerLogConfig = { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '2' } };

/** The writable-layer budget of one agent container (one scenario attempt); its breach is the policy's failure. */
export const defaultAgentDiskBudgetBytes = readSetting(workerSettings, 'TRL_AGENT_DISK_BUDGET_BYTES');

const storageOptSupport = new WeakMap<Docker, Promise<boolean>>();

/**
 * Whether this Docker engine honours `StorageOpt: { size }`; checked once per client by creating (not
 * starting) a container with it. The answer and the reason go to the worker's log via `onReason`.
 */
export function storageOptSupported(
  docker: Docker,
  image: string,
  onReason: (reason: string) => void = () => undefined,
): Promise<boolean> {
  let known = storageOptSupport.get(docker);
  if (!known) {
    known = (async () => {
      try {
        const probe = await docker.createContainer({
          Image: image,
          Cmd: ['true'],
          HostConfig: { StorageOpt: { size: '64M' }, LogConfig: containerLogConfig },
        });
        await probe.remove({ force: true }).catch(() => undefined);
        onReason('the storage driver caps writable layers (StorageOpt size)');
        return true;
      } catch (error) {
        onReason(
          `the storage driver cannot cap writable layers (${(error as Error).message.trim()}); the disk watchdog measures them instead`,
        );
        return false;
      }
    })();
    storageOptSupport.set(docker, known);
  }
  return known;
}

/** The bytes a container has written to its writable layer (Docker's SizeRw), or undefined if unknown. */
export async function writableLayerBytes(container: Docker.Container): Promise<number | undefined> {
  const info = (await container.inspect({ size: true } as Parameters<Docker.Container['inspect']>[0])) as {
    SizeRw?: number;
  };
  return typeof info.SizeRw === 'number' ? info.SizeRw : undefined;
}
