// The agent's account inside a scenario's container: who it is (getent), who owns the working directory, and the
// hand-over of that directory to it where the published task's agent is root (catalog/task-users.ts).
import { ApplicationFailure } from '@temporalio/common';
import { failureTypes } from '../contracts/failure-types.ts';
import type { ContainerSession } from '../sandbox/container-session.ts';

/** Gives the agent's account the working directory and what is in it (chown does not follow symbolic links). */
export async function handOver(
  session: ContainerSession,
  dir: string,
  account: { uid: number; gid: number },
): Promise<void> {
  const done = await session.exec({
    command: ['chown', '-R', '--', `${account.uid}:${account.gid}`, dir],
    deadlineMs: performance.now() + 120_000,
  });
  if (done.exitCode !== 0)
    throw ApplicationFailure.create({
      type: failureTypes.scenarioInvalid,
      message: `the working directory ${dir} could not be handed to the agent: ${done.stderr.slice(0, 300)}`,
      nonRetryable: true,
    });
}

/** The user owning a path in the container, or undefined when it cannot be read. */
export async function ownerOf(session: ContainerSession, file: string): Promise<string | undefined> {
  const found = await session.exec({ command: ['stat', '-c', '%U', file], deadlineMs: performance.now() + 30_000 });
  return found.exitCode === 0 ? found.stdout.trim() : undefined;
}

/** The agent's account in the container (getent), so files handed to it are its own. */
export async function agentAccountIn(
  session: ContainerSession,
  name: string,
): Promise<{ name: string; uid: number; gid: number; home: string }> {
  const found = await session.exec({ command: ['getent', 'passwd', name], deadlineMs: performance.now() + 30_000 });
  const fields = found.stdout.trim().split('\n')[0]?.split(':') ?? [];
  if (found.exitCode !== 0 || fields.length < 6) {
    throw ApplicationFailure.create({
      type: failureTypes.scenarioInvalid,
      message: `the agent user ${name} does not exist in the scenario image (task.toml [agent] user or the Dockerfile's USER)`,
      nonRetryable: true,
    });
  }
  return { name: fields[0]!, uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] || '/tmp' };
}
