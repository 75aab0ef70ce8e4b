// A Terminal-Bench 1 task's Dockerfile as the scenario build will take it (import-terminal-bench.ts): its RUN lines
// read as package-manager calls, what needs an unreachable host refused, and the working directory and the task's
// data folders handed to the agent, who is not root here as TB1's is.
import path from 'node:path';
import { parseDockerfile, planBuild, planNotes } from '../sandbox/dockerfile-rewrite.ts';
import { dockerfileNeeds, simpleCommands, unreachableNeed } from './dockerfile-steps.ts';

/**
 * The Dockerfile as the scenario build will take it, or why it cannot be built here. Its FROM stays as
 * written: the build resolves public bases (sandbox/public-base-images.ts) and the notes say how. Its
 * RUN lines are read as package-manager calls: Debian packages and the package registries are
 * reached; a download, clone or third-party apt source from any other host is refused, naming it.
 */
export function rewriteDockerfile(
  dockerfile: string,
  reachableHosts: ReadonlySet<string> = new Set(),
): { dockerfile: string; notes: string[] } | { refused: string } {
  const plan = planBuild(dockerfile);
  if (plan.kind === 'refused') return { refused: plan.reason };
  const notes = planNotes(plan);
  const needs = dockerfileNeeds(dockerfile);
  const unreachable = unreachableNeed(needs, reachableHosts);
  if (unreachable) return { refused: `the Dockerfile needs ${unreachable}` };
  const registries = [...new Set(needs.flatMap((need) => (need.kind === 'registry' ? [need.registry] : [])))];
  if (registries.length)
    notes.push(
      `the build installs from ${registries.join(', ')} (reached from the build with the host's CA bundle); the agent's run and the verifier stay offline`,
    );
  let workdir = '/';
  let user = '';
  const kept: string[] = [];
  const dataDirs = new Set<string>();
  for (const instruction of parseDockerfile(dockerfile)) {
    const argument = instruction.argument;
    for (const dir of taskDataDirs(instruction.keyword, argument, workdir)) dataDirs.add(dir);
    switch (instruction.keyword) {
      // A new stage starts afresh: what earlier stages (a data generator) made is not in the final image.
      case 'FROM':
        workdir = '/';
        user = '';
        dataDirs.clear();
        break;
      case 'WORKDIR':
        workdir = path.posix.resolve(workdir, argument.replace(/^["']|["']$/g, ''));
        break;
      case 'USER':
        user = argument;
        break;
      case 'ENTRYPOINT':
        notes.push(`ENTRYPOINT dropped (${argument.slice(0, 60)}): the sandbox starts its own command`);
        continue;
      default:
        break;
    }
    kept.push(instruction.raw);
  }
  // TB1 agents work as root; here they are `agent` (uid 1000), so the working directory is handed over, and
  // so are the folders the Dockerfile makes or fills for the task outside it (a /data the task rewrites).
  if (!user && workdir !== '/') {
    const data = [...dataDirs].filter((dir) => dir !== workdir && !dir.startsWith(`${workdir}/`)).sort();
    kept.push(`RUN mkdir -p ${workdir} && chown -R agent:agent ${[workdir, ...data].join(' ')}`);
    notes.push(
      `the agent runs as agent (uid 1000), not root: ${workdir} (the WORKDIR)${data.length ? ` and ${data.join(', ')} (the task's data)` : ''} ${data.length ? 'are' : 'is'} handed to it`,
    );
  }
  return { dockerfile: kept.join('\n').replace(/\n*$/, '\n'), notes };
}

/** Folders of the system and of the verifier: never the task's data, whatever the Dockerfile puts there. */
const notTaskData =
  /^\/(?:$|usr|etc|bin|sbin|lib|lib32|lib64|libx32|var|proc|sys|dev|boot|run|tmp|root|home|opt|srv|mnt|media|tests|oracle|solution|logs)(?:\/|$)/;

/**
 * The top folders a Dockerfile instruction makes (`mkdir DIR`) or copies into (COPY/ADD's destination) for
 * the task, outside the system's own: what a TB1 agent, root, could rewrite.
 */
function taskDataDirs(keyword: string, argument: string, workdir: string): string[] {
  const paths: string[] = [];
  if (keyword === 'RUN')
    for (const { words } of simpleCommands(argument))
      if (words[0] === 'mkdir') paths.push(...words.slice(1).filter((word) => !word.startsWith('-')));
  if (keyword === 'COPY' || keyword === 'ADD') {
    const words = argument.split(/\s+/).filter((word) => word && !word.startsWith('--'));
    if (words.length >= 2) paths.push(words.at(-1)!);
  }
  return paths
    .filter((p) => !/[$*?{}`]/.test(p))
    .map((p) => path.posix.resolve(workdir, p))
    .filter((p) => !notTaskData.test(p))
    .map((p) => `/${p.split('/')[1]}`);
}
