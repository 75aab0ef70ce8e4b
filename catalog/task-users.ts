// Which OS users a task's agent and tests run as. Harbor's rule — [agent] user / [verifier] user,
// else the image's USER — within ours: the agent is never root, and never the tests' own user
// (agent code would then write the report).
import path from 'node:path';
import type { TaskConfig } from '../contracts/task-config.ts';
import { ScenarioError } from './scenario-error.ts';

/** The base image's unprivileged user (uid 1000), the agent when a task names no other. */
export const defaultAgentUser = 'agent';

function isRoot(user: string): boolean {
  return user === 'root' || user === '0';
}

export interface TaskUsers {
  agent: string;
  /** The agent runs where Harbor would run root (no [agent] user; the image's USER unset or root). */
  standsInForRoot: boolean;
  /** Absent: root. */
  verifier?: string;
  notes: string[];
}

/** imageUser: the image's USER ("name", "uid" or "name:group"; "" when unset). */
export function resolveTaskUsers(scenario: string, config: TaskConfig, imageUser: string): TaskUsers {
  const notes: string[] = [];
  const fromImage = imageUser.split(':')[0] ?? '';
  const wanted = config.agent.user ?? fromImage;
  let agent = wanted || defaultAgentUser;
  if (isRoot(agent)) {
    agent = defaultAgentUser;
    notes.push(
      `${config.agent.user ? '[agent] user' : "the image's USER"} is root; the agent runs as ${defaultAgentUser} (uid 1000): agents never run as root here`,
    );
  }
  const verifier = config.verifier.user && !isRoot(config.verifier.user) ? config.verifier.user : undefined;
  if (verifier && (verifier === agent || verifier === defaultAgentUser || verifier === '1000')) {
    throw new ScenarioError(
      scenario,
      `[verifier] user ${verifier} is a user agent code runs as; the tests need a user of their own (or root, the default)`,
    );
  }
  return { agent, standsInForRoot: !wanted || isRoot(wanted), ...(verifier ? { verifier } : {}), notes };
}

/** A working directory that is the task's own: not /, not the system's folders (a WORKDIR of / hands over nothing). */
export function isTaskFolder(dir: string): boolean {
  const normal = path.posix.normalize(dir);
  return (
    path.posix.isAbsolute(normal) &&
    !/^\/(?:$|(?:usr|etc|bin|sbin|lib\w*|var|proc|sys|dev|boot|run)(?:\/|$)|(?:root|home|opt|srv|tmp|mnt|media)\/?$)/.test(
      normal,
    )
  );
}
