// The verifier contract: a fresh container with no network — of the scenario image holding the
// declared agent outputs only, or of the agent container's snapshot when a task declares none — the
// hidden tests copied in only now; tests/test.sh under the verifier timeout; the report (ctrf.json,
// reward.txt, reward.json) read back once the container is stopped. Trust: the tests and the report are root's, agent
// code runs only as
// the agent user (through trl_agent_run), and none of it is alive when the report is read.
// A verifier that crashes, times out or reports nothing is an infrastructure error, never a zero.
import path from 'node:path';
import type { ContainerSession } from '../sandbox/container-session.ts';
import { agentUid } from '../sandbox/agent-outputs.ts';
import { agentUser as agentUserName } from '../agents/scenario-agent.ts';
import { packDirectory, packFiles } from '../sandbox/tar-archive.ts';
import { readVerifierScore, VerifierReportError, type TestCounts } from './ctrf-report.ts';
import type { VerifierFailureType } from '../contracts/failure-types.ts';

export type VerifierFailureKind = VerifierFailureType;

export class VerifierFailure extends Error {
  constructor(
    readonly kind: VerifierFailureKind,
    message: string,
    readonly log: string,
  ) {
    super(message);
    this.name = 'VerifierFailure';
  }
}

export interface VerifierRun {
  counts: TestCounts;
  reportName: 'ctrf.json' | 'reward.txt' | 'reward.json';
  reportText: string;
  /** How the score was read (a placeholder report passed over, zero tests collected). */
  notes: string[];
  log: string;
  wallMs: number;
}

const reportLimitBytes = 4 * 1024 * 1024;

export async function runVerifier(request: {
  session: ContainerSession;
  scenarioDir: string;
  /** The declared outputs; absent when the container is the agent's snapshot (everything is already there). */
  outputsArchive?: Buffer;
  timeoutSec: number;
  /** The task's test count (pytest's collection, else a static count): the scale of a reward and of zero collected. */
  declaredTests?: number;
  /** [verifier] user: test.sh runs as this user (root by default); it owns /logs/verifier. */
  user?: string;
  /**
   * Where test.sh runs from: the task's working directory (the image's WORKDIR), as Harbor runs it; a TB1
   * run-tests.sh refuses `/` and works relative to it. /tests when absent.
   */
  workdir?: string;
  /** [verifier] env. */
  env?: Record<string, string>;
  /** Files of tests/ as they run, when they differ from the task's (a rewrite the tape noted): name → text. */
  rewrittenTests?: Record<string, string>;
  /** Called while test.sh runs (progress); the worker's activities beat on their own (workers/steady-heartbeat.ts). */
  onTick?: () => void;
  signal?: AbortSignal;
}): Promise<VerifierRun> {
  const { session } = request;
  // Outputs first, then the verifier's own folders: nothing an agent produced can land in /tests or
  // /logs/verifier. Both are root's and closed to the agent user, who runs every piece of agent code.
  if (request.outputsArchive) await session.upload(request.outputsArchive, '/');
  const user = request.user ?? 'root';
  if (user === agentUserName || user === String(agentUid))
    throw new VerifierFailure(
      'verifier_crashed',
      `[verifier] user ${user} is the user agent code runs as; the tests need a user of their own`,
      '',
    );
  const prepared = await session.exec({
    command: ['sh', '-c', prepareScript(user)],
    deadlineMs: performance.now() + 30_000,
  });
  if (prepared.exitCode !== 0)
    throw new VerifierFailure(
      'verifier_crashed',
      `could not prepare /logs/verifier for ${user}: ${prepared.stderr.trim().slice(0, 300)}`,
      prepared.stderr,
    );
  await session.upload(await packDirectory(path.join(request.scenarioDir, 'tests'), 'tests'), '/');
  const rewritten = Object.entries(request.rewrittenTests ?? {});
  if (rewritten.length)
    await session.upload(
      await packFiles(
        rewritten.map(([name, text]) => ({ name: `tests/${name}`, content: Buffer.from(text, 'utf8'), mode: 0o755 })),
      ),
      '/',
    );
  await session.exec({
    command: ['sh', '-c', 'chown -R root:root /tests && chmod -R u+rwX,go+rX,go-w /tests'],
    deadlineMs: performance.now() + 30_000,
  });
  const result = await session.exec({
    command: ['bash', '/tests/test.sh'],
    user,
    workdir: request.workdir ?? '/tests',
    env: Object.entries(request.env ?? {}).map(([name, value]) => `${name}=${value}`),
    deadlineMs: performance.now() + request.timeoutSec * 1000,
    onTick: request.onTick,
    signal: request.signal,
  });
  // Whatever the agent's code left running (daemons, forks in their own sessions) is listed, then
  // every process in the container dies: the report is read from a stopped container.
  const survivors = result.timedOut
    ? ''
    : (
        await session.exec({
          command: ['sh', '-c', listAgentProcessesScript(user)],
          deadlineMs: performance.now() + 30_000,
        })
      ).stdout.trim();
  await stopContainer(session);
  const log = [
    result.stdout,
    result.stderr && `[stderr]\n${result.stderr}`,
    `[exit ${result.exitCode ?? 'killed'}${result.timedOut ? ', timed out' : ''}]`,
    survivors && `[agent processes alive after the tests, killed before the report was read]\n${survivors}`,
  ]
    .filter(Boolean)
    .join('\n');
  if (result.timedOut)
    throw new VerifierFailure(
      'verifier_timeout',
      `tests/test.sh ran past the verifier timeout of ${request.timeoutSec}s`,
      log,
    );

  const files = {
    ctrf: await readSingleFile(session, '/logs/verifier/ctrf.json'),
    rewardTxt: await readSingleFile(session, '/logs/verifier/reward.txt'),
    rewardJson: await readSingleFile(session, '/logs/verifier/reward.json'),
  };
  if (files.ctrf === undefined && files.rewardTxt === undefined && files.rewardJson === undefined) {
    throw new VerifierFailure(
      'verifier_crashed',
      `tests/test.sh exited ${result.exitCode} without writing ctrf.json, reward.txt or reward.json`,
      log,
    );
  }
  try {
    const score = readVerifierScore(files, request.declaredTests ?? 1);
    const noted = score.notes.length ? `${log}\n[score]\n${score.notes.join('\n')}` : log;
    return {
      counts: score.counts,
      reportName: score.reportName,
      reportText: score.reportText,
      notes: score.notes,
      log: noted,
      wallMs: result.wallMs,
    };
  } catch (error) {
    if (error instanceof VerifierReportError) throw new VerifierFailure('verifier_report_invalid', error.message, log);
    throw error;
  }
}

/** The verifier's user owns /logs/verifier (0700); /logs stays root's. */
function prepareScript(user: string): string {
  return [
    'rm -rf /logs/verifier /tests',
    'mkdir -p /logs/verifier',
    'chown root:root /logs',
    'chmod 0755 /logs',
    `chown ${shellWord(user)}: /logs/verifier`,
    'chmod 0700 /logs/verifier',
    ctrfEntryPointScript,
  ].join(' && ');
}

/** A user name or uid as one shell word (the schema allows only [A-Za-z0-9_-$]). */
function shellWord(user: string): string {
  return `'${user.replace(/'/g, `'\\''`)}'`;
}

// `pytest --ctrf FILE` works without `-p trl_ctrf`, as with the pytest-json-ctrf plugin Harbor's
// tasks expect: the base image's plugin gets a pytest11 entry point (named as the module, so an
// explicit `-p trl_ctrf` is the same plugin, loaded once).
const ctrfEntryPointScript = `{ d=/usr/lib/python3/dist-packages/trl_ctrf-1.0.dist-info; [ ! -f /usr/lib/python3/dist-packages/trl_ctrf.py ] || [ -e "$d" ] || { mkdir "$d" && printf 'Metadata-Version: 2.1\\nName: trl-ctrf\\nVersion: 1.0\\n' > "$d/METADATA" && printf '[pytest11]\\ntrl_ctrf = trl_ctrf\\n' > "$d/entry_points.txt"; }; }`;

// Processes of anyone but root and the verifier's user (zombies excluded: they run nothing), one
// "pid command" per line: agent code the tests started, or anything left of the agent's run.
function listAgentProcessesScript(user: string): string {
  return `verifier=$(id -u ${shellWord(user)} 2>/dev/null || echo 0)
for d in /proc/[0-9]*; do
  uid=$(awk '/^Uid:/ {print $2}' "$d/status" 2>/dev/null) || continue
  state=$(awk '/^State:/ {print $2}' "$d/status" 2>/dev/null)
  [ -n "$uid" ] && [ "$uid" != 0 ] && [ "$uid" != "$verifier" ] && [ "$state" != Z ] && echo "\${d#/proc/} $(tr '\\0' ' ' < "$d/cmdline" 2>/dev/null | cut -c1-200)"
done; true`;
}

async function stopContainer(session: ContainerSession): Promise<void> {
  await session.container.kill().catch((error: { statusCode?: number }) => {
    // 409: already stopped (the exec deadline killed it).
    if (error.statusCode !== 409) throw error;
  });
  await session.container.wait();
}

async function readSingleFile(session: ContainerSession, file: string): Promise<string | undefined> {
  const entries = await session.download(file, reportLimitBytes);
  const entry = entries?.find((e) => e.type === 'file');
  return entry?.content?.toString('utf8');
}
