// The verifier contract: a fresh container of the scenario image with no network, the hidden tests
// and the declared agent outputs only; tests/test.sh under the verifier timeout; ctrf.json read back
// once the container is stopped. Trust: the tests and the report are root's, agent code runs only as
// the agent user (through trl_agent_run), and none of it is alive when the report is read.
// A verifier that crashes, times out or reports nothing is an infrastructure error, never a zero.
import path from 'node:path';
import type { ContainerSession } from '../sandbox/container-session.ts';
import { agentUid } from '../sandbox/agent-outputs.ts';
import { packDirectory } from '../sandbox/tar-archive.ts';
import { parseCtrf, parseReward, VerifierReportError, type TestCounts } from './ctrf-report.ts';
import type { VerifierFailureType } from '../contracts/failure-types.ts';

export type VerifierFailureKind = VerifierFailureType;

export class VerifierFailure extends Error {
  constructor(readonly kind: VerifierFailureKind, message: string, readonly log: string) {
    super(message);
    this.name = 'VerifierFailure';
  }
}

export interface VerifierRun {
  counts: TestCounts;
  reportText: string;
  log: string;
  wallMs: number;
}

const reportLimitBytes = 4 * 1024 * 1024;

export async function runVerifier(request: {
  session: ContainerSession;
  scenarioDir: string;
  outputsArchive: Buffer;
  timeoutSec: number;
  onTick: () => void;
  signal?: AbortSignal;
}): Promise<VerifierRun> {
  const { session } = request;
  // Outputs first, then the verifier's own folders: nothing an agent produced can land in /tests or
  // /logs/verifier. Both are root's and closed to the agent user, who runs every piece of agent code.
  await session.upload(request.outputsArchive, '/');
  await session.exec({ command: ['sh', '-c', prepareScript], deadlineMs: performance.now() + 30_000 });
  await session.upload(await packDirectory(path.join(request.scenarioDir, 'tests'), 'tests'), '/');
  await session.exec({ command: ['sh', '-c', 'chown -R root:root /tests && chmod -R u+rwX,go+rX,go-w /tests'], deadlineMs: performance.now() + 30_000 });
  const result = await session.exec({
    command: ['bash', '/tests/test.sh'],
    user: 'root',
    workdir: '/tests',
    deadlineMs: performance.now() + request.timeoutSec * 1000,
    onTick: request.onTick,
    signal: request.signal,
  });
  // Whatever the agent's code left running (daemons, forks in their own sessions) is listed, then
  // every process in the container dies: the report is read from a stopped container.
  const survivors = result.timedOut ? '' : (await session.exec({ command: ['sh', '-c', listAgentProcessesScript], deadlineMs: performance.now() + 30_000 })).stdout.trim();
  await stopContainer(session);
  const log = [
    result.stdout,
    result.stderr && `[stderr]\n${result.stderr}`,
    `[exit ${result.exitCode ?? 'killed'}${result.timedOut ? ', timed out' : ''}]`,
    survivors && `[agent processes alive after the tests, killed before the report was read]\n${survivors}`,
  ].filter(Boolean).join('\n');
  if (result.timedOut) throw new VerifierFailure('verifier_timeout', `tests/test.sh ran past the verifier timeout of ${request.timeoutSec}s`, log);

  const ctrf = await readSingleFile(session, '/logs/verifier/ctrf.json');
  const reward = ctrf === undefined ? await readSingleFile(session, '/logs/verifier/reward.txt') : undefined;
  try {
    if (ctrf !== undefined) return { counts: parseCtrf(ctrf), reportText: ctrf, log, wallMs: result.wallMs };
    if (reward !== undefined) return { counts: parseReward(reward), reportText: reward, log, wallMs: result.wallMs };
  } catch (error) {
    if (error instanceof VerifierReportError) throw new VerifierFailure('verifier_report_invalid', error.message, log);
    throw error;
  }
  throw new VerifierFailure('verifier_crashed', `tests/test.sh exited ${result.exitCode} without writing ctrf.json or reward.txt`, log);
}

const prepareScript = [
  'rm -rf /logs/verifier /tests',
  'mkdir -p /logs/verifier',
  'chown root:root /logs /logs/verifier',
  'chmod 0755 /logs',
  'chmod 0700 /logs/verifier',
].join(' && ');

// Processes of the agent user (zombies excluded: they run nothing), one "pid command" per line.
const listAgentProcessesScript = `for d in /proc/[0-9]*; do
  uid=$(awk '/^Uid:/ {print $2}' "$d/status" 2>/dev/null) || continue
  state=$(awk '/^State:/ {print $2}' "$d/status" 2>/dev/null)
  [ "$uid" = ${agentUid} ] && [ "$state" != Z ] && echo "\${d#/proc/} $(tr '\\0' ' ' < "$d/cmdline" 2>/dev/null | cut -c1-200)"
done; true`;

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

