// Validator-side test agent: runs the scenario's reference solution/solve.sh. It proves a scenario is
// solvable inside its sandbox and that its verifier recognises success.
// It runs as the image's default user (the Dockerfile's USER, root when there is none), as Harbor's
// oracle does (`environment.exec` with no user): published solutions install packages, write under
// /usr or chown files, and would fail as an unprivileged user through no fault of the task. This keeps
// the invariants: solve.sh is the task author's reference, run by the validator, never agent code;
// the container still has no network; the agent of a scored run is never root; and in the verifier,
// code the oracle left runs as the agent user like any agent's output.
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { packDirectory } from '../sandbox/tar-archive.ts';
import { agentAccount, type AgentRunRecord, type AgentRunRequest, type ScenarioAgent } from './scenario-agent.ts';

export class OracleAgent implements ScenarioAgent {
  constructor(
    private readonly script = 'solve.sh',
    readonly name = 'oracle',
  ) {}

  async run({ session, task, deadlineMs, onTick, signal }: AgentRunRequest): Promise<AgentRunRecord> {
    const solutionDir = path.join(task.scenarioDir, 'solution');
    const found = await stat(path.join(solutionDir, this.script)).catch(() => undefined);
    if (!found?.isFile()) throw new Error(`scenario ${task.scenario} has no solution/${this.script}`);
    // The solution only ever enters the container of an oracle run, never an agent's; it is removed
    // afterwards, so a snapshot the verifier starts from does not carry it.
    const account = task.solutionUser ?? agentAccount(task);
    await session.upload(await packDirectory(solutionDir, 'solution', { uid: account.uid, gid: account.gid }), '/');
    const result = await session.exec({
      command: ['bash', `/solution/${this.script}`],
      user: account.name,
      workdir: task.workdir,
      env: [...(task.env ?? []), ...(task.solutionEnv ?? [])],
      deadlineMs,
      onTick,
      signal,
    });
    // A run stopped from outside (deadline, disk budget, cancellation) may have lost its container: nothing to tidy.
    if (!result.timedOut && !signal?.aborted)
      await session.exec({ command: ['rm', '-rf', '/solution'], deadlineMs: performance.now() + 30_000 });
    const transcript = [
      `$ bash /solution/${this.script}`,
      result.stdout,
      result.stderr && `[stderr]\n${result.stderr}`,
      `[exit ${result.exitCode ?? 'killed'}${result.timedOut ? ', deadline reached' : ''}]`,
    ]
      .filter(Boolean)
      .join('\n');
    return { exitCode: result.exitCode, timedOut: result.timedOut, transcript };
  }
}
